/*
 * Host tests: two device models joined back to back (model_harness.c's
 * wire), each driven by its own dp_driver "driver + provider", with the
 * helpers the RC/UD transport tests share: connect two QPs (ARP entry,
 * addresses, PSNs, MTU in the host context, then RTR/RTS) and run both
 * devices, the wire and the fake clock until everything is quiet.
 *
 * Static functions in a header: the unit Makefile links a fixed harness
 * list, and only the b2b tests need these.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef B2B_H
#define B2B_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dp_driver.h"
#include "e810_xport.h"

#define B2B_ARP_IDX     1
#define B2B_ARP_SELF    2       /* our own MAC: loopback */
#define B2B_IP(i)       (0x0a000001u + (i))     /* 10.0.0.1, 10.0.0.2 */
#define B2B_ALL_RIGHTS  (E810_ACCESS_LOCAL_READ | E810_ACCESS_LOCAL_WRITE | \
                         E810_ACCESS_REMOTE_READ | E810_ACCESS_REMOTE_WRITE)

typedef struct B2B {
    Harness *h[2];
    DpDev dev[2];
} B2B;

static inline uint64_t b2b_mac_u64(const uint8_t mac[6])
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < 6; i++) {
        v = v << 8 | mac[i];
    }
    return v;
}

static inline void b2b_arp(DpDev *d, uint32_t idx, const uint8_t mac[6])
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] =
        FIELD_PREP(E810_CQPSQ_MAT_MACADDR, b2b_mac_u64(mac));
    assert_true(rd_do(&d->d, E810_CQP_OP_MANAGE_ARP,
                      FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, idx) |
                      E810_CQPSQ_MAT_ENTRYVALID, q));
}

/* Two devices (PCI functions 0 and 1: different MACs), wired, PE on. */
static inline B2B *b2b_new(size_t xmem)
{
    B2B *b = calloc(1, sizeof(*b));
    unsigned i;

    assert_non_null(b);
    for (i = 0; i < 2; i++) {
        b->h[i] = harness_new(i);
        assert_non_null(b->h[i]);
        if (xmem) {
            harness_xmem_init(b->h[i], xmem);
        }
        dp_dev_init(&b->dev[i], b->h[i]);
        /* What ADD_VSI with the PE_FLTR_EN queue option sets (test_aq). */
        b->h[i]->core.aq.pe_filter = true;
    }
    harness_wire(b->h[0], b->h[1]);
    for (i = 0; i < 2; i++) {
        b2b_arp(&b->dev[i], B2B_ARP_IDX, b->h[1 - i]->core.mac);
        b2b_arp(&b->dev[i], B2B_ARP_SELF, b->h[i]->core.mac);
    }
    return b;
}

static inline void b2b_free(B2B *b)
{
    harness_free(b->h[0]);
    harness_free(b->h[1]);
    free(b);
}

static inline void b2b_ctx_rmw(DpQp *qp, unsigned off, uint64_t mask,
                               uint64_t val)
{
    uint64_t *c = &dp_qp_ctx(qp)[E810_QW(off)];

    *c = htole64((le64toh(*c) & ~mask) | (val & mask));
}

/* Index of the device @qp lives on within @b. */
static inline unsigned b2b_side(B2B *b, DpQp *qp)
{
    return qp->dev == &b->dev[1];
}

/*
 * Points @a at @c (and @c at @a when @c is RC): MTU, PSNs, addresses,
 * the ARP entry of the peer; then RTR and RTS.
 */
static inline void b2b_connect_one(B2B *b, DpQp *a, DpQp *c, uint32_t mtu,
                                   uint32_t sq_psn, uint32_t rq_psn)
{
    unsigned s = b2b_side(b, a);
    bool self = b2b_side(b, c) == s;

    b2b_ctx_rmw(a, E810_QPC_MSS_OFF, E810_QPC_SNDMSS | E810_QPC_ARPIDX,
                FIELD_PREP(E810_QPC_SNDMSS, mtu) |
                FIELD_PREP(E810_QPC_ARPIDX,
                           self ? B2B_ARP_SELF : B2B_ARP_IDX));
    b2b_ctx_rmw(a, E810_QPC_DEST_OFF, E810_QPC_DESTQP,
                FIELD_PREP(E810_QPC_DESTQP, c->id));
    b2b_ctx_rmw(a, E810_QPC_DESTIP23_OFF, E810_QPC_IP_LO,
                B2B_IP(self ? s : 1 - s));
    b2b_ctx_rmw(a, E810_QPC_LOCALIP23_OFF, 0xffffffffull, B2B_IP(s));
    b2b_ctx_rmw(a, E810_QPC_MAC_OFF, E810_QPC_MACADDRESS,
                FIELD_PREP(E810_QPC_MACADDRESS,
                           b2b_mac_u64(b->h[s]->core.mac)));
    b2b_ctx_rmw(a, E810_QPC_PSN_OFF, E810_QPC_PSNNXT,
                FIELD_PREP(E810_QPC_PSNNXT, sq_psn));
    b2b_ctx_rmw(a, E810_QPC_EPSN_OFF, E810_QPC_EPSN,
                FIELD_PREP(E810_QPC_EPSN, rq_psn));
    dp_qp_rts(a);
}

/* An RC pair; PSNs start near the 24-bit wrap on purpose. */
static inline void b2b_connect(B2B *b, DpQp *a, DpQp *c, uint32_t mtu)
{
    b2b_connect_one(b, a, c, mtu, 0xfffff0, 0xffff00);
    b2b_connect_one(b, c, a, mtu, 0xffff00, 0xfffff0);
}

/* One round: each device's pending work, then each side's queued wire.
 * Returns whether anything moved. */
static inline bool b2b_step(B2B *b)
{
    bool busy = false;
    unsigned i;

    for (i = 0; i < 2; i++) {
        if (b->h[i]->core.work_pending) {
            harness_run_work(b->h[i]);
            busy = true;
        }
    }
    for (i = 0; i < 2; i++) {
        if (harness_wire_deliver(b->h[i])) {
            busy = true;
        }
    }
    return busy;
}

/* Rounds until nothing moves, at most @steps (the fuzzers' bound). */
static inline void b2b_pump(B2B *b, unsigned steps)
{
    while (steps-- && b2b_step(b)) {
    }
}

/* Both fake clocks move together: retransmission and RNR timers fire. */
static inline void b2b_advance(B2B *b, uint64_t ns)
{
    harness_advance(b->h[0], ns);
    harness_advance(b->h[1], ns);
}

/*
 * Runs both devices' work and the wire until nothing moves, then lets the
 * fake clocks (kept equal) run to the next timer, until no timer is left.
 * @max_ns bounds the virtual time spent (0: no bound).
 */
static inline void b2b_run_for(B2B *b, uint64_t max_ns)
{
    uint64_t start = b->h[0]->now_ns;
    unsigned long n;

    for (n = 0;; n++) {
        uint64_t d, delta;

        assert_true(n < 100000000ul);
        if (b2b_step(b)) {
            continue;
        }
        d = b->h[0]->timer_deadline < b->h[1]->timer_deadline ?
            b->h[0]->timer_deadline : b->h[1]->timer_deadline;
        if (d == UINT64_MAX ||
            (max_ns && d - start > max_ns)) {
            return;
        }
        delta = d > b->h[0]->now_ns ? d - b->h[0]->now_ns : 0;
        b2b_advance(b, delta);
    }
}

static inline void b2b_run(B2B *b)
{
    b2b_run_for(b, 0);
}

static inline E810XportStats *b2b_stats(B2B *b, unsigned i)
{
    return &b->h[i]->core.xport->stats;
}

/* Deterministic payload byte @i of message @seed. */
static inline uint8_t b2b_byte(uint32_t seed, uint64_t i)
{
    uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed * 0xc2b2ae3d27d4eb4full;

    return (uint8_t)(x >> 29 ^ x >> 47);
}

static inline void b2b_fill(void *buf, uint64_t len, uint32_t seed)
{
    uint8_t *p = buf;
    uint64_t i;

    for (i = 0; i < len; i++) {
        p[i] = b2b_byte(seed, i);
    }
}

static inline bool b2b_check(const void *buf, uint64_t len, uint32_t seed)
{
    const uint8_t *p = buf;
    uint64_t i;

    for (i = 0; i < len; i++) {
        if (p[i] != b2b_byte(seed, i)) {
            return false;
        }
    }
    return true;
}

#endif /* B2B_H */
