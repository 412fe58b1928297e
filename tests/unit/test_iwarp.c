/*
 * Device model: iWARP mode (docs/hw-model.md, "iWARP mode"): the mode from
 * the CQP context, the PUDA QPs, the APBVT and quad hash tables, the Rx
 * steering they drive and the ILQ data path (driver-built TCP segments out,
 * steered segments into the ILQ's RQ in upstream puda.c's layout).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e810_core.h"
#include "e810_iwarp.h"
#include "b2b.h"

#define LPORT   7174
#define RPORT   40000

typedef struct Iw {
    B2B *b;
    DpCq cq[2];             /* the ILQ's CQ (id 1) on each device */
    DpQp ilq[2];            /* QP 1 */
} Iw;

static int setup(void **state)
{
    Iw *t = calloc(1, sizeof(*t));

    rd_protocol = E810_PROTOCOL_IWARP_ONLY;
    t->b = b2b_new(0);
    rd_protocol = E810_PROTOCOL_ROCE_ONLY;
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    Iw *t = *state;

    b2b_free(t->b);
    free(t);
    return 0;
}

static RdmaCompl apbvt(DpDev *d, uint16_t port, bool add)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_MAPT_PORT_OFF)] = port;
    return rd_exec(&d->d, E810_CQP_OP_MANAGE_APBVT,
                   add ? E810_CQPSQ_MAPT_ADDPORT : 0, q);
}

/* A quad hash op for IPv4 (as upstream irdma_sc_manage_qhash_table_entry()
 * lays it out): local @lip:@lport; remote @rip:@rport for ESTABLISHED. */
static RdmaCompl qhash(DpDev *d, unsigned manage, unsigned type,
                       uint32_t lip, uint16_t lport, uint32_t rip,
                       uint16_t rport, uint32_t qpn)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QHASH_PORTS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_QPN, qpn) |
        FIELD_PREP(E810_CQPSQ_QHASH_DEST_PORT, lport) |
        FIELD_PREP(E810_CQPSQ_QHASH_SRC_PORT, rport);
    q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] = lip;
    q[E810_QW(E810_CQPSQ_QHASH_RIP23_OFF)] = rip;
    return rd_exec(&d->d, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
                   FIELD_PREP(E810_CQPSQ_QHASH_MANAGE, manage) |
                   FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE, type) |
                   E810_CQPSQ_QHASH_IPV4VALID, q);
}

static void put_be32(uint8_t *p, uint32_t v)
{
    v = htobe32(v);
    memcpy(p, &v, 4);
}

static uint32_t get_be32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return be32toh(v);
}

/* An Ethernet/IPv4/TCP frame from @src to @dst (device indexes of @b):
 * TCP ports, flags and @plen payload bytes (0x5a...). Returns its length. */
static size_t tcp_frame(Iw *t, uint8_t *f, unsigned src, unsigned dst,
                        uint16_t sport, uint16_t dport, uint8_t flags,
                        unsigned plen)
{
    size_t l4 = 34;

    memset(f, 0, 34 + 20 + plen);
    memcpy(f, t->b->h[dst]->core.mac, 6);
    memcpy(f + 6, t->b->h[src]->core.mac, 6);
    f[12] = 0x08;
    f[14] = 0x45;
    f[16] = (20 + 20 + plen) >> 8;
    f[17] = 20 + 20 + plen;
    f[22] = 64;
    f[23] = 6;
    put_be32(f + 26, B2B_IP(src));
    put_be32(f + 30, B2B_IP(dst));
    f[l4] = sport >> 8;
    f[l4 + 1] = sport;
    f[l4 + 2] = dport >> 8;
    f[l4 + 3] = dport;
    f[l4 + 4] = 0x11;           /* seq 0x11223344 */
    f[l4 + 5] = 0x22;
    f[l4 + 6] = 0x33;
    f[l4 + 7] = 0x44;
    f[l4 + 12] = 5 << 4;
    f[l4 + 13] = flags;
    memset(f + l4 + 20, 0x5a, plen);
    return l4 + 20 + plen < 60 ? 60 : l4 + 20 + plen;
}

/* ---- mode --------------------------------------------------------------- */

static void test_mode_from_cqp_context(void **state)
{
    Iw *t = *state;
    Harness *h = harness_new(0);
    RdmaDriver d;

    /* the devices of setup ran with PROTOCOL_USED 1 */
    assert_true(e810_iw_mode(&t->b->h[0]->core));
    /* RoCEv2 (2) and "any" (0) are not iWARP; 3 is refused */
    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    assert_false(e810_iw_mode(&h->core));
    rd_cqp_destroy(&d);
    assert_false(h->core.rdma.cqp.created);
    rd_cqp_ctx(&d)[0] |= htole64(E810_CQPHC_PROTOCOL_USED);
    assert_int_equal(rd_cqp_create(&d) & E810_CCQPSTATUS_CCQP_ERR,
                     E810_CCQPSTATUS_CCQP_ERR);
    assert_false(h->core.rdma.cqp.created);
    harness_free(h);
}

/* ---- APBVT -------------------------------------------------------------- */

static void test_apbvt(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Iwarp *iw = &t->b->h[0]->core.rdma.iw;

    assert_false(apbvt(d, LPORT, true).error);
    assert_true(e810_apbvt_has(&t->b->h[0]->core, LPORT));
    assert_false(e810_apbvt_has(&t->b->h[0]->core, LPORT + 1));
    /* a bitmap: a second add and a delete of a port not set are no-ops */
    assert_false(apbvt(d, LPORT, true).error);
    assert_int_equal(iw->apbvt_count, 1);
    assert_int_equal(iw->stats.apbvt_dup_adds, 1);
    assert_false(apbvt(d, LPORT, false).error);
    assert_false(e810_apbvt_has(&t->b->h[0]->core, LPORT));
    assert_false(apbvt(d, LPORT, false).error);
    assert_int_equal(iw->stats.apbvt_missing_dels, 1);
    assert_int_equal(iw->apbvt_count, 0);
}

/* ---- quad hash ---------------------------------------------------------- */

static void test_qhash_table(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Core *c = &t->b->h[0]->core;
    uint32_t l[4] = { 0, 0, 0, B2B_IP(0) }, r[4] = { 0, 0, 0, B2B_IP(1) };
    uint32_t other[4] = { 0, 0, 0, B2B_IP(5) };
    const E810Qhash *e;

    assert_false(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).error);
    /* the same key twice, a key not there: refused */
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                           B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).minor,
                     E810_CQP_MIN_BAD_STATE);
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_DELETE,
                           E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                           B2B_IP(1), RPORT, E810_ILQ_QPN).minor,
                     E810_CQP_MIN_BAD_STATE);
    /* entry types other than TCP, MANAGE 3, a QPN out of range */
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_ADD, 3, B2B_IP(0), LPORT, 0,
                           0, E810_ILQ_QPN).minor, E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(qhash(d, 3, E810_QHASH_TYPE_TCP_SYN, B2B_IP(0), LPORT,
                           0, 0, E810_ILQ_QPN).minor, E810_CQP_MIN_BAD_PARAM);
    assert_true(e810_hmc_count(c, E810_HMC_QP) < 1u << 18);
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_ADD,
                           E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                           B2B_IP(1), RPORT,
                           e810_hmc_count(c, E810_HMC_QP)).minor,
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(c->rdma.iw.qhash_count, 1);
    assert_int_equal(c->rdma.iw.stats.qhash_refused, 5);

    assert_false(qhash(d, E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, E810_ILQ_QPN).error);
    /* the connection entry first, else the listener's */
    e = e810_qhash_lookup(c, true, l, LPORT, r, RPORT, false, 0);
    assert_non_null(e);
    assert_int_equal(e->type, E810_QHASH_TYPE_TCP_ESTABLISHED);
    e = e810_qhash_lookup(c, true, l, LPORT, r, RPORT + 1, false, 0);
    assert_non_null(e);
    assert_int_equal(e->type, E810_QHASH_TYPE_TCP_SYN);
    assert_null(e810_qhash_lookup(c, true, other, LPORT, r, RPORT, false, 0));
    assert_null(e810_qhash_lookup(c, true, l, LPORT + 1, r, RPORT, false, 0));
    assert_null(e810_qhash_lookup(c, false, l, LPORT, r, RPORT, false, 0));
    /* MODIFY re-points an entry */
    assert_false(qhash(d, E810_QHASH_MANAGE_MODIFY,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, 12).error);
    assert_int_equal(e810_qhash_lookup(c, true, l, LPORT, r, RPORT, false,
                                       0)->qpn, 12);
    assert_false(qhash(d, E810_QHASH_MANAGE_DELETE,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, 0).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_DELETE, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, 0).error);
    assert_int_equal(c->rdma.iw.qhash_count, 0);
}

static void test_qhash_ipv6_vlan(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Core *c = &t->b->h[0]->core;
    uint32_t l[4] = { 0xfe800000, 0, 0x02000000, 0x00000001 };
    uint32_t r[4] = { 0 };
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QHASH_PORTS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_QPN, E810_ILQ_QPN) |
        FIELD_PREP(E810_CQPSQ_QHASH_DEST_PORT, LPORT);
    q[E810_QW(E810_CQPSQ_QHASH_LIP01_OFF)] = (uint64_t)l[0] << 32 | l[1];
    q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] = (uint64_t)l[2] << 32 | l[3];
    q[E810_QW(E810_CQPSQ_QHASH_QS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_VLANID, 100);
    assert_false(rd_exec(&d->d, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
                         FIELD_PREP(E810_CQPSQ_QHASH_MANAGE,
                                    E810_QHASH_MANAGE_ADD) |
                         FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE,
                                    E810_QHASH_TYPE_TCP_SYN) |
                         E810_CQPSQ_QHASH_VLANVALID, q).error);
    /* the VLAN of the entry must be the frame's (priority bits aside) */
    assert_non_null(e810_qhash_lookup(c, false, l, LPORT, r, 1, true,
                                      0x2000 | 100));
    assert_null(e810_qhash_lookup(c, false, l, LPORT, r, 1, true, 101));
    assert_null(e810_qhash_lookup(c, false, l, LPORT, r, 1, false, 0));
}

static void test_qhash_refused_in_roce_mode(void **state)
{
    Harness *h = harness_new(0);
    DpDev d;

    dp_dev_init(&d, h);
    assert_int_equal(qhash(&d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                           B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).minor,
                     E810_CQP_MIN_BAD_STATE);
    harness_free(h);
}

/* ---- steering ----------------------------------------------------------- */

static void test_steering(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Core *c = &t->b->h[0]->core;
    uint8_t f[128];
    size_t n;

    n = tcp_frame(t, f, 1, 0, RPORT, LPORT, E810_TCP_SYN, 0);
    /* nothing in the tables: the LAN's */
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    assert_false(apbvt(d, LPORT, true).error);
    /* a port of ours, but no entry */
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).error);
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_ILQ);
    /* a listen entry takes SYNs only */
    n = tcp_frame(t, f, 1, 0, RPORT, LPORT, E810_TCP_SYN | E810_TCP_ACK, 0);
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    n = tcp_frame(t, f, 1, 0, RPORT, LPORT, E810_TCP_ACK, 10);
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    /* ... a connection entry anything of its 4-tuple */
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, E810_ILQ_QPN).error);
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_ILQ);
    /* re-pointed to a QP at RTS: the offloaded connection's */
    assert_false(qhash(d, E810_QHASH_MANAGE_MODIFY,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, 12).error);
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_ENGINE);
    /* other ports, another MAC, not TCP, PE filter off: the LAN's */
    n = tcp_frame(t, f, 1, 0, RPORT + 1, LPORT + 1, E810_TCP_SYN, 0);
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    n = tcp_frame(t, f, 1, 1, RPORT + 1, LPORT, E810_TCP_SYN, 0);
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    n = tcp_frame(t, f, 1, 0, RPORT + 1, LPORT, E810_TCP_SYN, 0);
    f[23] = 17;
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    f[23] = 6;
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_ILQ);
    c->aq.pe_filter = false;
    assert_int_equal(e810_iw_steer(c, f, n), E810_IW_RX_LAN);
    c->aq.pe_filter = true;
    /* truncated: IP total length beyond the frame */
    f[17] = 200;
    assert_int_equal(e810_iw_steer(c, f, 60), E810_IW_RX_LAN);
}

/* ---- ILQ data path ------------------------------------------------------ */

/* The ILQ of device @i: CQ 1, QP 1 (UDA, RTS), @nbuf 1024-byte buffers. */
static void make_ilq(Iw *t, unsigned i, unsigned nbuf)
{
    DpDev *d = &t->b->dev[i];
    uint64_t *ctx;
    unsigned k;

    d->next_cq = E810_ILQ_QPN;
    d->next_qp = E810_ILQ_QPN;
    dp_cq_create(d, &t->cq[i], 64);
    dp_qp_create(d, &t->ilq[i], E810_QP_TYPE_UDA, &t->cq[i], &t->cq[i], 32,
                 8, 0, false, true);
    assert_int_equal(t->ilq[i].id, E810_ILQ_QPN);
    ctx = dp_qp_ctx(&t->ilq[i]);
    assert_int_equal(FIELD_GET(E810_QPC_SNDMSS,
                               le64toh(ctx[E810_QW(E810_QPC_MSS_OFF)])), 1024);
    for (k = 0; k < nbuf; k++) {
        E810Sge s = { .addr = mem_alloc(t->b->h[i], 1024), .len = 1024 };

        dp_post_recv(&t->ilq[i], &s, 1);
    }
}

static void create_ah(Iw *t, unsigned i, uint32_t idx, bool vlan)
{
    DpDev *d = &t->b->dev[i];
    uint64_t q[8] = { 0 };

    rd_back_object(&d->d, E810_HMC_FSIAV, idx);
    q[E810_QW(E810_CQPSQ_AH_MAC_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_MAC, b2b_mac_u64(t->b->h[i]->core.mac));
    q[E810_QW(E810_CQPSQ_AH_VLAN_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_TC, 0x10) |
        FIELD_PREP(E810_CQPSQ_AH_VLANTAG, vlan ? 0x6007 : 0) |
        FIELD_PREP(E810_CQPSQ_AH_PDINDEXLO, DP_PD);
    q[E810_QW(E810_CQPSQ_AH_FLOW_OFF)] =
        FIELD_PREP(E810_CQPSQ_AH_HOPLIMIT, 0x40) |
        FIELD_PREP(E810_CQPSQ_AH_ARPINDEX, B2B_ARP_IDX);
    q[E810_QW(E810_CQPSQ_AH_DIP23_OFF)] = B2B_IP(1 - i);
    q[E810_QW(E810_CQPSQ_AH_SIP23_OFF)] = B2B_IP(i);
    assert_true(rd_do(&d->d, E810_CQP_OP_CREATE_ADDR_HANDLE,
                      FIELD_PREP(E810_CQPSQ_AH_AVIDX, idx) |
                      E810_CQPSQ_AH_IPV4VALID |
                      (vlan ? E810_CQPSQ_AH_INSERTVLANTAG : 0), q));
}

/* One's complement sum check over @len bytes (0 when the sum is right). */
static uint16_t csum(uint32_t sum, const uint8_t *p, size_t len)
{
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += p[i] << 8 | p[i + 1];
    }
    if (len & 1) {
        sum += p[len - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return ~sum & 0xffff;
}

/* Posts a SYN (20-byte header + 8 option bytes, as upstream irdma_send_syn()
 * builds it) with @plen payload bytes on device @i's ILQ, AH @ah. */
static void ilq_post_syn(Iw *t, unsigned i, uint32_t ah, unsigned plen)
{
    DpQp *qp = &t->ilq[i];
    uint64_t buf = mem_alloc(t->b->h[i], 28 + plen);
    uint8_t *s = mem_ptr(t->b->h[i], buf);
    uint64_t q[4];

    memset(s, 0, 28 + plen);
    s[0] = LPORT >> 8;
    s[1] = LPORT & 0xff;
    s[2] = RPORT >> 8;
    s[3] = RPORT & 0xff;
    s[7] = 1;                   /* seq 1 */
    s[12] = 7 << 4;
    s[13] = E810_TCP_SYN;
    s[14] = 0xff;
    s[15] = 0xff;
    s[20] = 2;                  /* MSS 1460 */
    s[21] = 4;
    s[22] = 0x05;
    s[23] = 0xb4;
    s[24] = 3;                  /* WS 2 */
    s[25] = 3;
    s[26] = 2;
    memset(s + 28, 0xa5, plen);
    q[0] = buf;
    q[1] = FIELD_PREP(E810_WQE_FRAG_LEN, 28 + plen);
    q[2] = 0;
    q[3] = FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
           FIELD_PREP(E810_WQE_L4LEN, 7) | FIELD_PREP(E810_WQE_AHID, ah) |
           E810_WQE_SIGCOMPL;
    dp_post_raw(qp, q, 1, false);
    dp_ring(qp, true);
    dp_run(qp->dev);
    /* the wire to the other device */
    harness_wire_deliver(t->b->h[i]);
    dp_run(&t->b->dev[1 - i]);
}

static void test_ilq_tx_rx(void **state)
{
    Iw *t = *state;
    Harness *h0 = t->b->h[0];
    E810Core *c1 = &t->b->h[1]->core;
    const uint8_t *f = h0->tx_frame;
    DpCqe e;
    uint64_t rbuf;
    const uint8_t *r;

    make_ilq(t, 0, 2);
    make_ilq(t, 1, 2);
    rbuf = rd_mem64(&t->b->dev[1].d, t->ilq[1].rq_pa);
    create_ah(t, 0, 3, false);
    /* device 1 listens on LPORT... from device 0's view RPORT: the SYN
     * goes from LPORT to RPORT */
    assert_false(apbvt(&t->b->dev[1], RPORT, true).error);
    assert_false(qhash(&t->b->dev[1], E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_SYN, B2B_IP(1), RPORT, 0, 0,
                       E810_ILQ_QPN).error);

    ilq_post_syn(t, 0, 3, 0);
    /* on the wire: Ethernet, IPv4 and the TCP checksum the driver left 0 */
    assert_int_equal(h0->tx_frames, 1);
    assert_int_equal(h0->tx_len, 62);
    assert_memory_equal(f, c1->mac, 6);
    assert_memory_equal(f + 6, h0->core.mac, 6);
    assert_int_equal(f[12] << 8 | f[13], 0x0800);
    assert_int_equal(f[14], 0x45);
    assert_int_equal(f[15], 0x10);
    assert_int_equal(f[16] << 8 | f[17], 48);
    assert_int_equal(f[22], 0x40);
    assert_int_equal(f[23], 6);
    assert_int_equal(get_be32(f + 26), B2B_IP(0));
    assert_int_equal(get_be32(f + 30), B2B_IP(1));
    assert_int_equal(csum(0, f + 14, 20), 0);
    {
        uint8_t ph[12] = { 0 };

        memcpy(ph, f + 26, 8);
        ph[9] = 6;
        ph[11] = 28;
        assert_int_equal(csum(csum(0, ph, 12) ^ 0xffff, f + 34, 28), 0);
    }
    assert_true(f[34 + 16] || f[34 + 17]);
    /* the SQ CQE of the send (the driver frees the buffer on it) */
    assert_true(dp_poll_cq(&t->cq[0], &e));
    assert_true(e.sq && !e.error);
    assert_int_equal(e.qp_id, E810_ILQ_QPN);
    assert_int_equal(e.ctx, t->ilq[0].compl_ctx);
    assert_int_equal(h0->core.rdma.iw.stats.ilq_tx, 1);

    /* device 1: into the ILQ RQ, IP at 20, TCP at 40; CQE length 40 + 28 */
    assert_int_equal(c1->rdma.iw.stats.rx_to_ilq, 1);
    assert_true(dp_poll_cq(&t->cq[1], &e));
    assert_false(e.sq || e.error);
    assert_int_equal(e.len, 40 + 28);
    assert_true(e.stag_or_ipv4);
    assert_true(e.ext && e.smac_valid && !e.vlan_valid);
    assert_memory_equal(e.smac, h0->core.mac, 6);
    assert_int_equal(e.ctx, t->ilq[1].compl_ctx);
    r = mem_ptr(t->b->h[1], rbuf);
    assert_memory_equal(r, (uint8_t[20]){ 0 }, 20);
    assert_memory_equal(r + 20, f + 14, 20);
    assert_memory_equal(r + 40, f + 34, 28);

    /* a segment too long for the 1024-byte buffers is dropped */
    ilq_post_syn(t, 0, 3, 1000);
    assert_int_equal(h0->tx_frames, 2);
    assert_int_equal(c1->rdma.iw.stats.ilq_rx_dropped, 1);
    assert_false(dp_poll_cq(&t->cq[1], &e));
    /* a SYN to a port nobody listens on is the LAN's */
    assert_false(qhash(&t->b->dev[1], E810_QHASH_MANAGE_DELETE,
                       E810_QHASH_TYPE_TCP_SYN, B2B_IP(1), RPORT, 0, 0,
                       0).error);
    ilq_post_syn(t, 0, 3, 0);
    assert_int_equal(c1->rdma.iw.stats.rx_to_ilq, 2);
    assert_false(dp_poll_cq(&t->cq[1], &e));
}

static void test_ilq_tx_vlan_bad_ah(void **state)
{
    Iw *t = *state;
    Harness *h0 = t->b->h[0];
    DpAe ae;
    DpCqe e;

    make_ilq(t, 0, 1);
    create_ah(t, 0, 4, true);
    ilq_post_syn(t, 0, 4, 0);
    assert_int_equal(h0->tx_frames, 1);
    assert_int_equal(h0->tx_frame[12] << 8 | h0->tx_frame[13], 0x8100);
    assert_int_equal(h0->tx_frame[14] << 8 | h0->tx_frame[15], 0x6007);
    assert_int_equal(h0->tx_frame[16] << 8 | h0->tx_frame[17], 0x0800);
    assert_true(dp_poll_cq(&t->cq[0], &e) && !e.error);
    /* an AH that does not exist: AE, nothing sent */
    ilq_post_syn(t, 0, 5, 0);
    assert_int_equal(h0->tx_frames, 1);
    assert_true(dp_poll_ae(&t->b->dev[0], &ae));
    assert_int_equal(ae.code, E810_AE_INVALID_AH_ENTRY);
    assert_int_equal(h0->core.rdma.iw.stats.ilq_tx_errors, 1);
}

/* Writes (@set) or clears the 4-tuple LPORT/RPORT in @qp's host context. */
static void ctx_tuple(DpQp *qp, bool set)
{
    b2b_ctx_rmw(qp, E810_QPC_SIZES_OFF,
                E810_QPC_SRCPORTNUM | E810_QPC_DESTPORTNUM,
                set ? FIELD_PREP(E810_QPC_SRCPORTNUM, LPORT) |
                      FIELD_PREP(E810_QPC_DESTPORTNUM, RPORT) : 0);
    b2b_ctx_rmw(qp, E810_QPC_LOCALIP23_OFF, 0xffffffffull,
                set ? B2B_IP(0) : 0);
    b2b_ctx_rmw(qp, E810_QPC_DESTIP23_OFF, 0xffffffffull,
                set ? B2B_IP(1) : 0);
}

/*
 * An iWARP QP in IDLE on device 0 whose host context names the 4-tuple
 * LPORT/RPORT, the ILQ's entry for that connection and the listener's SYN
 * entry in the quad hash.
 */
static void conn_qp(Iw *t, DpCq *cq, DpQp *qp)
{
    DpDev *d = &t->b->dev[0];

    dp_cq_create(d, cq, 16);
    dp_qp_create(d, qp, E810_QP_TYPE_IWARP, cq, cq, 32, 8, 0, false, false);
    ctx_tuple(qp, true);
    assert_true(dp_qp_modify(qp, E810_QP_STATE_IDLE));
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, E810_ILQ_QPN).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).error);
    assert_int_equal(t->b->h[0]->core.rdma.iw.qhash_count, 2);
}

/* DESTROY_QP with REMOVEHASHENTRY of @qp; only the SYN entry is left. */
static void destroy_leaves_listener(Iw *t, DpQp *qp)
{
    assert_true(rd_do(&t->b->dev[0].d, E810_CQP_OP_DESTROY_QP,
                      FIELD_PREP(E810_CQPSQ_QP_QPID, qp->id) |
                      FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_IWARP) |
                      E810_CQPSQ_QP_REMOVEHASHENTRY, NULL));
    assert_int_equal(t->b->h[0]->core.rdma.iw.qhash_count, 1);
    assert_int_equal(t->b->h[0]->core.rdma.iw.qhash[1].type,
                     E810_QHASH_TYPE_TCP_SYN);
}

/*
 * An iWARP QP destroyed with REMOVEHASHENTRY takes its connection entry,
 * named by its host context when the device was never given a TOE
 * context (no offload).
 */
static void test_destroy_removes_hash_entry(void **state)
{
    Iw *t = *state;
    DpCq cq;
    DpQp qp;

    conn_qp(t, &cq, &qp);
    destroy_leaves_listener(t, &qp);
}

/* MODIFY_QP of iWARP QP @qp to @state with the header bits @extra. */
static bool iw_modify(DpQp *qp, unsigned state, uint64_t extra)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = qp->ctx_pa;
    q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = qp->shadow_pa;
    return rd_do(&qp->dev->d, E810_CQP_OP_MODIFY_QP,
                 FIELD_PREP(E810_CQPSQ_QP_QPID, qp->id) |
                 FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_IWARP) |
                 FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE, state) |
                 E810_CQPSQ_QP_CQNUMVALID | extra, q);
}

/*
 * conn_qp() whose TOE context the device loaded with the 4-tuple
 * (MODIFY_QP with TOECTXVALID; in IDLE, so nothing is offloaded here),
 * and whose host context then names no connection, as upstream writes
 * it for TERMINATE and ERROR (irdma_sc_qp_setctx() without
 * tcp_info_valid).
 */
static void toe_qp(Iw *t, DpCq *cq, DpQp *qp)
{
    conn_qp(t, cq, qp);
    assert_true(iw_modify(qp, E810_QP_STATE_IDLE, E810_CQPSQ_QP_TOECTXVALID));
    ctx_tuple(qp, false);
}

/*
 * The passive side of an offloaded connection whose QP ends through a
 * Terminate (upstream irdma_terminate_connection()): irdma_accept() left
 * the ILQ's connection entry to the QP (cm_node->qhash_set cleared), and
 * the MODIFY_QPs to TERMINATE and ERROR carry a host context rewritten
 * without the TCP fields (irdma_sc_qp_setctx() without tcp_info_valid).
 * DESTROY_QP with REMOVEHASHENTRY must still take the entry of the
 * 4-tuple the device loaded with TOECTXVALID; it used to read the
 * 4-tuple from the host context and leave the entry behind.
 */
static void test_destroy_after_terminate_removes_hash_entry(void **state)
{
    Iw *t = *state;
    DpCq cq;
    DpQp qp;

    toe_qp(t, &cq, &qp);
    assert_true(iw_modify(&qp, E810_QP_STATE_TERMINATE,
                          FIELD_PREP(E810_CQPSQ_QP_TERMACT, 3)));
    assert_true(iw_modify(&qp, E810_QP_STATE_ERROR, 0));
    destroy_leaves_listener(t, &qp);
}

/*
 * MODIFY_QP to ERROR with REMOVEHASHENTRY (upstream irdma_terminate_done()
 * and the AEs that end a connection, irdma_next_iw_state() with del_hash)
 * takes the entry of the loaded 4-tuple already; DESTROY_QP then finds
 * none and succeeds.
 */
static void test_modify_removes_hash_entry(void **state)
{
    Iw *t = *state;
    DpCq cq;
    DpQp qp;

    toe_qp(t, &cq, &qp);
    assert_true(iw_modify(&qp, E810_QP_STATE_ERROR,
                          E810_CQPSQ_QP_REMOVEHASHENTRY));
    assert_int_equal(t->b->h[0]->core.rdma.iw.qhash_count, 1);
    destroy_leaves_listener(t, &qp);
}

static void test_format_tables(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Core *c = &t->b->h[0]->core;
    char buf[1024];

    assert_false(apbvt(d, LPORT, true).error);
    assert_false(apbvt(d, 80, true).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, E810_ILQ_QPN).error);
    assert_int_equal(e810_iw_format_tables(c, NULL, 0),
                     e810_iw_format_tables(c, buf, sizeof(buf)));
    assert_non_null(strstr(buf, "mode=iwarp apbvt=2 qhash=2 "));
    assert_non_null(strstr(buf, " apbvt_ports=80,7174 "));
    assert_non_null(strstr(buf, " qhash_entries=syn/10.0.0.1:7174/qp1,"
                                "est/10.0.0.1:7174-10.0.0.2:40000/qp1"));
    /* a short buffer gets what fits, terminated */
    assert_true(e810_iw_format_tables(c, buf, 10) > 10);
    assert_int_equal(strlen(buf), 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mode_from_cqp_context, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_apbvt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_qhash_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_qhash_ipv6_vlan, setup,
                                        teardown),
        cmocka_unit_test(test_qhash_refused_in_roce_mode),
        cmocka_unit_test_setup_teardown(test_steering, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ilq_tx_rx, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ilq_tx_vlan_bad_ah, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_destroy_removes_hash_entry,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_destroy_after_terminate_removes_hash_entry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modify_removes_hash_entry,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_format_tables, setup, teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_iwarp", tests, NULL, NULL);
}
