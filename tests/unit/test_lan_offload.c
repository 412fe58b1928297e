/*
 * Device model: LAN offloads and queues beyond queue 0. TSO of TCP over
 * IPv4 and IPv6 (segments checked field by field, checksums verified with
 * this file's own code), Tx checksum insertion, the Rx packet type and
 * checksum status bits, several queues with their own rings, doorbells
 * and interrupt causes, and bad offload requests dropped and counted.
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

#include "lan_rig.h"

#define ETH 14
#define TCP_OPT_LEN 32          /* TCP header with 12 bytes of options */
#define PAY_64K (64 * 1024)
#define CSUM_TCP (E810_TX_DESC_CMD_L4T_TCP)
#define CSUM_UDP (E810_TX_DESC_CMD_L4T_UDP)

/* ---- the test's own checksum arithmetic (RFC 1071) ---- */

static uint32_t sum16(uint32_t acc, const uint8_t *p, size_t n)
{
    while (n > 1) {
        acc += (uint32_t)p[0] << 8 | p[1];
        p += 2;
        n -= 2;
    }
    if (n) {
        acc += (uint32_t)p[0] << 8;
    }
    return acc;
}

static uint16_t fold16(uint32_t acc)
{
    acc = (acc >> 16) + (acc & 0xffff);
    acc += acc >> 16;
    return (uint16_t)acc;
}

static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | p[2] << 8 | p[3];
}

static void set16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v & 0xff;
}

/* Pseudo-header sum; @l4len 0 leaves the length out (as ice_tso() does). */
static uint32_t pseudo(const uint8_t *ip, bool v6, uint8_t proto,
                       uint32_t l4len)
{
    uint32_t acc = v6 ? sum16(0, ip + 8, 32) : sum16(0, ip + 12, 8);

    return acc + proto + (l4len >> 16) + (l4len & 0xffff);
}

static bool ip4_ok(const uint8_t *ip)
{
    return fold16(sum16(0, ip, (ip[0] & 15) * 4)) == 0xffff;
}

/* The L4 checksum of a frame checks out against its IP header. */
static bool l4_ok(const uint8_t *ip, bool v6, uint8_t proto)
{
    size_t ihl = v6 ? 40 : (ip[0] & 15) * 4;
    uint32_t l4len = v6 ? be16(ip + 4) : be16(ip + 2) - ihl;

    return fold16(sum16(pseudo(ip, v6, proto, l4len), ip + ihl, l4len)) ==
           0xffff;
}

/* ---- packet builders ---- */

/* To the rig's PF address (its MAC rule takes it), from another station. */
static void eth_hdr(uint8_t *p, uint16_t type)
{
    static const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 1 };

    memcpy(p, rig_mac, 6);
    memcpy(p + 6, src, sizeof(src));
    set16(p + 12, type);
}

static void ip4_hdr(uint8_t *ip, uint16_t tot, uint8_t proto)
{
    static const uint8_t h[20] = {
        0x45, 0, 0, 0, 0x12, 0x34, 0x40, 0, 64, 0, 0, 0,
        10, 0, 0, 1, 10, 0, 0, 2,
    };

    memcpy(ip, h, sizeof(h));
    set16(ip + 2, tot);
    ip[9] = proto;
}

static void ip4_fix_csum(uint8_t *ip)
{
    set16(ip + 10, 0);
    set16(ip + 10, (uint16_t)~fold16(sum16(0, ip, 20)));
}

static void ip6_hdr(uint8_t *ip, uint16_t plen, uint8_t nh)
{
    unsigned i;

    memset(ip, 0, 40);
    ip[0] = 0x60;
    set16(ip + 4, plen);
    ip[6] = nh;
    ip[7] = 64;
    for (i = 0; i < 16; i++) {
        ip[8 + i] = (uint8_t)(0x20 + i);
        ip[24 + i] = (uint8_t)(0x40 + i);
    }
}

/* TCP header of @len bytes (options: NOPs), flags @fl, sequence @seq. */
static void tcp_hdr(uint8_t *t, size_t len, uint32_t seq, uint8_t fl)
{
    memset(t, 0, len);
    set16(t, 40000);
    set16(t + 2, 5001);
    set16(t + 4, seq >> 16);
    set16(t + 6, seq & 0xffff);
    set16(t + 10, 7);           /* ack 7 */
    t[12] = (uint8_t)((len / 4) << 4);
    t[13] = fl;
    set16(t + 14, 512);
    memset(t + 20, 1, len - 20);
}

static void pattern(uint8_t *p, size_t n, unsigned seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        p[i] = (uint8_t)(seed + i * 13 + (i >> 8));
    }
}

/* ---- descriptors ---- */

static uint64_t data_qw1(unsigned len, unsigned cmd, unsigned maclen,
                         unsigned iplen, unsigned l4len)
{
    uint32_t off = FIELD_PREP(E810_TXD_OFF_MACLEN, maclen / 2) |
                   FIELD_PREP(E810_TXD_OFF_IPLEN, iplen / 4) |
                   FIELD_PREP(E810_TXD_OFF_L4LEN, l4len / 4);

    return FIELD_PREP(E810_TXD_DTYPE, E810_TX_DESC_DTYPE_DATA) |
           FIELD_PREP(E810_TXD_CMD, cmd) | FIELD_PREP(E810_TXD_OFFSET, off) |
           FIELD_PREP(E810_TXD_BUF_SZ, len);
}

static uint64_t tso_qw1(uint64_t tso_len, uint64_t mss)
{
    return FIELD_PREP(E810_TXD_DTYPE, E810_TX_DESC_DTYPE_CTX) |
           FIELD_PREP(E810_TXD_CTX_CMD, E810_TX_CTX_DESC_TSO) |
           FIELD_PREP(E810_TXD_CTX_TSO_LEN, tso_len) |
           FIELD_PREP(E810_TXD_CTX_MSS, mss);
}

/* What a TSO request looks like: packet, header lengths, offload bits. */
typedef struct TsoReq {
    uint64_t pkt;               /* guest address of the whole packet */
    size_t len, maclen, iplen, l4len;
    unsigned cmd;               /* IIPT | L4T */
    uint64_t ctx;               /* context qw1 (0: none) */
    size_t chunk;               /* payload bytes per data descriptor */
} TsoReq;

/*
 * Posts @r at descriptor @at of queue 0: the context descriptor, one for
 * the headers, the payload in @r->chunk pieces; returns the next index.
 */
static unsigned post_req(Fixture *f, unsigned at, const TsoReq *r)
{
    size_t hlen = r->maclen + r->iplen + r->l4len, off;
    unsigned i = at;

    if (r->ctx) {
        txd_put(f, 0, i++, 0, r->ctx);
    }
    for (off = 0; off < r->len; i++) {
        size_t n = off == 0 && r->ctx ? hlen : r->len - off;
        unsigned cmd = r->cmd;

        if (off && n > r->chunk) {
            n = r->chunk;
        }
        if (off + n == r->len) {
            cmd |= E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS;
        }
        txd_put(f, 0, i, r->pkt + off,
                data_qw1(n, cmd, r->maclen, r->iplen, r->l4len));
        off += n;
    }
    return i;
}

static void kick(Fixture *f, unsigned q, unsigned tail)
{
    wr32(f->h, E810_QTX_COMM_DBELL(q), tail);
    harness_run_work(f->h);
}

/* ---- TSO ---- */

/*
 * Checks the segments of a @pay-byte TCP send of headers @hdr (@hlen
 * bytes, IP at ETH) and payload @payload cut at @mss.
 */
static void check_segments(Fixture *f, const uint8_t *hdr, size_t hlen,
                           const uint8_t *payload, size_t pay, size_t mss,
                           bool v6)
{
    unsigned nseg = (pay + mss - 1) / mss, i;
    size_t l4 = ETH + (v6 ? 40 : 20);
    uint32_t seq0 = be32(hdr + l4 + 4);
    uint8_t fl0 = hdr[l4 + 13];

    assert_int_equal(f->wire->n, nseg);
    for (i = 0; i < nseg; i++) {
        const uint8_t *s = f->wire->frame[i], *ip = s + ETH, *t = s + l4;
        size_t n = i == nseg - 1 ? pay - (size_t)i * mss : mss;
        uint8_t fl = fl0;

        assert_int_equal(f->wire->len[i], hlen + n);
        assert_memory_equal(s, hdr, ETH);
        assert_memory_equal(s + hlen, payload + (size_t)i * mss, n);
        if (v6) {
            assert_int_equal(be16(ip + 4), hlen - ETH - 40 + n);
            assert_memory_equal(ip + 6, hdr + ETH + 6, 34);
        } else {
            assert_int_equal(be16(ip + 2), hlen - ETH + n);
            assert_int_equal(be16(ip + 4), (uint16_t)(0x1234 + i));
            assert_int_equal(be16(ip + 6), 0x4000);     /* DF kept */
            assert_memory_equal(ip + 8, hdr + ETH + 8, 2);  /* TTL, proto */
            assert_memory_equal(ip + 12, hdr + ETH + 12, 8);
            assert_true(ip4_ok(ip));
        }
        assert_int_equal(be32(t + 4), (uint32_t)(seq0 + i * mss));
        assert_memory_equal(t, hdr + l4, 4);            /* ports */
        assert_memory_equal(t + 8, hdr + l4 + 8, 5);    /* ack, doff */
        if (i != nseg - 1) {
            fl &= ~(0x01 | 0x08);   /* FIN, PSH: the last segment only */
        }
        if (i != 0) {
            fl &= ~0x80;            /* CWR: the first segment only */
        }
        assert_int_equal(t[13], fl);
        assert_memory_equal(t + 20, hdr + l4 + 20, hlen - l4 - 20);
        assert_true(l4_ok(ip, v6, 6));
    }
}

static void test_tso_tcp_ipv4_64k(void **state)
{
    Fixture *f = *state;
    size_t hlen = ETH + 20 + TCP_OPT_LEN, mss = 1448;
    TsoReq r = { .len = hlen + PAY_64K, .maclen = ETH, .iplen = 20,
                 .l4len = TCP_OPT_LEN, .chunk = 12288,
                 .cmd = E810_TX_DESC_CMD_IIPT_IPV4_CSUM | CSUM_TCP };
    uint8_t *p;
    unsigned next;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    r.pkt = mem_alloc(f->h, r.len);
    p = mem_ptr(f->h, r.pkt);
    /* As ice_tso() leaves it: no IP length/checksum, the TCP checksum
     * seeded with the pseudo-header sum without the length. */
    eth_hdr(p, 0x0800);
    ip4_hdr(p + ETH, 0, 6);
    tcp_hdr(p + ETH + 20, TCP_OPT_LEN, 0xfffff000u, 0x80 | 0x10 | 0x08 | 0x01);
    set16(p + ETH + 20 + 16, fold16(pseudo(p + ETH, false, 6, 0)));
    pattern(p + hlen, PAY_64K, 5);
    r.ctx = tso_qw1(PAY_64K, mss);
    next = post_req(f, 0, &r);
    assert_int_equal(next, 8);      /* context, header, 6 payload pieces */
    kick(f, 0, next);

    check_segments(f, p, hlen, p + hlen, PAY_64K, mss, false);
    assert_int_equal(f->wire->n, 46);
    assert_int_equal(f->h->core.lan.stats.tx_tso, 1);
    assert_int_equal(f->h->core.lan.stats.tx_packets, 46);
    assert_int_equal(f->h->core.lan.stats.tx_mdd, 0);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), next);
    assert_int_equal(FIELD_GET(E810_TXD_DTYPE, txd_qw1(f, next - 1)),
                     E810_TX_DESC_DTYPE_DESC_DONE);
    /* The context descriptor is not written back. */
    assert_int_equal(FIELD_GET(E810_TXD_DTYPE, txd_qw1(f, 0)),
                     E810_TX_DESC_DTYPE_CTX);
}

static void test_tso_tcp_ipv6_64k(void **state)
{
    Fixture *f = *state;
    size_t hlen = ETH + 40 + 20, mss = 1428;
    TsoReq r = { .len = hlen + PAY_64K, .maclen = ETH, .iplen = 40,
                 .l4len = 20, .chunk = 8192,
                 .cmd = E810_TX_DESC_CMD_IIPT_IPV6 | CSUM_TCP };
    uint8_t *p;
    unsigned next;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    r.pkt = mem_alloc(f->h, r.len);
    p = mem_ptr(f->h, r.pkt);
    eth_hdr(p, 0x86dd);
    ip6_hdr(p + ETH, 0, 6);
    tcp_hdr(p + ETH + 40, 20, 1000, 0x10 | 0x08);
    set16(p + ETH + 40 + 16, fold16(pseudo(p + ETH, true, 6, 0)));
    pattern(p + hlen, PAY_64K, 9);
    r.ctx = tso_qw1(PAY_64K, mss);
    next = post_req(f, 0, &r);
    kick(f, 0, next);

    check_segments(f, p, hlen, p + hlen, PAY_64K, mss, true);
    assert_int_equal(f->wire->n, 46);
    assert_int_equal(f->wire->len[45], hlen + PAY_64K - 45 * mss);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), next);
}

/* Posts @n buffers of @pkt, cut at @cuts, as one packet after @ctx. */
static unsigned post_cut(Fixture *f, unsigned at, uint64_t pkt,
                         const size_t *cuts, unsigned n, uint64_t ctx,
                         unsigned cmd, uint16_t tag)
{
    size_t off = 0;
    unsigned k;

    txd_put(f, 0, at++, 0, ctx);
    for (k = 0; k < n; k++) {
        unsigned c = cmd | (k == n - 1 ? E810_TX_DESC_CMD_EOP |
                                         E810_TX_DESC_CMD_RS : 0);

        txd_put(f, 0, at++, pkt + off,
                data_qw1(cuts[k] - off, c, ETH, 20, 8) |
                FIELD_PREP(E810_TXD_L2TAG1, tag));
        off = cuts[k];
    }
    return at;
}

static void test_uso_vlan_and_buffers_per_segment(void **state)
{
    Fixture *f = *state;
    const size_t hlen = ETH + 20 + 8, pay = 1003, mss = 1000;
    /* Headers and the first payload bytes share a buffer: counted once,
     * segment 0 takes 8 buffers, as many as the device allows. */
    const size_t ok_cuts[8] = { 100, 235, 370, 505, 640, 775, 910, 1045 };
    /* Headers alone, then 9 buffers for segment 0: one too many. */
    const size_t bad_cuts[10] = { 42, 154, 266, 378, 490, 602, 714, 826, 938,
                                  1045 };
    unsigned cmd = E810_TX_DESC_CMD_IIPT_IPV4_CSUM | CSUM_UDP |
                   E810_TX_DESC_CMD_IL2TAG1;
    uint64_t b;
    uint8_t *p;
    unsigned at, i;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    b = mem_alloc(f->h, hlen + pay);
    p = mem_ptr(f->h, b);
    eth_hdr(p, 0x0800);
    ip4_hdr(p + ETH, 0, 17);
    set16(p + ETH + 20, 4000);
    set16(p + ETH + 22, 4001);
    set16(p + ETH + 26, fold16(pseudo(p + ETH, false, 17, 0)));
    pattern(p + hlen, pay, 6);

    at = post_cut(f, 0, b, ok_cuts, 8, tso_qw1(pay, mss), cmd, 0x2064);
    kick(f, 0, at);
    assert_int_equal(f->wire->n, 2);
    for (i = 0; i < 2; i++) {
        const uint8_t *s = f->wire->frame[i], *ip = s + ETH + 4;
        size_t n = i ? pay - mss : mss;

        /* The tag from L2TAG1 sits after the MACs; offsets move by 4. */
        assert_int_equal(f->wire->len[i], hlen + 4 + n);
        assert_memory_equal(s, p, 12);
        assert_int_equal(be16(s + 12), 0x8100);
        assert_int_equal(be16(s + 14), 0x2064);
        assert_int_equal(be16(s + 16), 0x0800);
        assert_int_equal(be16(ip + 2), 28 + n);
        assert_int_equal(be16(ip + 4), 0x1234 + i);
        assert_int_equal(be16(ip + 24), 8 + n);     /* UDP length */
        assert_true(ip4_ok(ip));
        assert_true(l4_ok(ip, false, 17));
        assert_memory_equal(ip + 28, p + hlen + i * mss, n);
    }

    at = post_cut(f, at, b, bad_cuts, 10, tso_qw1(pay, mss), cmd, 0);
    kick(f, 0, at);
    assert_int_equal(f->wire->n, 2);
    assert_int_equal(f->h->core.lan.stats.tx_mdd, 1);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), at);
}

/* ---- checksum offload ---- */

/* Sends @len bytes at @pkt as one plain packet with @cmd offloads. */
static void send_csum(Fixture *f, unsigned *at, uint64_t pkt, size_t len,
                      unsigned cmd, size_t iplen, size_t l4len)
{
    TsoReq r = { .pkt = pkt, .len = len, .maclen = ETH, .iplen = iplen,
                 .l4len = l4len, .cmd = cmd, .chunk = len };

    *at = post_req(f, *at, &r);
    kick(f, 0, *at);
}

static void test_tx_checksum_offload(void **state)
{
    Fixture *f = *state;
    uint64_t b = mem_alloc(f->h, 4 * 2048);
    uint8_t *p0 = mem_ptr(f->h, b), *p1 = p0 + 2048, *p2 = p1 + 2048;
    uint8_t *p3 = p2 + 2048, before[20];
    unsigned at = 0;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    /* UDP/IPv4, IP checksum already right (IIPT_IPV4: left alone). */
    eth_hdr(p0, 0x0800);
    ip4_hdr(p0 + ETH, 20 + 8 + 301, 17);
    ip4_fix_csum(p0 + ETH);
    set16(p0 + ETH + 20, 5353);
    set16(p0 + ETH + 22, 53);
    set16(p0 + ETH + 24, 8 + 301);
    pattern(p0 + ETH + 28, 301, 1);
    set16(p0 + ETH + 26, fold16(pseudo(p0 + ETH, false, 17, 8 + 301)));
    memcpy(before, p0 + ETH, 20);
    send_csum(f, &at, b, ETH + 20 + 8 + 301,
              E810_TX_DESC_CMD_IIPT_IPV4 | CSUM_UDP, 20, 8);
    assert_int_equal(f->wire->n, 1);
    assert_memory_equal(f->wire->frame[0] + ETH, before, 20);
    assert_true(l4_ok(f->wire->frame[0] + ETH, false, 17));

    /* TCP/IPv4 with the IP checksum left to the device. */
    eth_hdr(p1, 0x0800);
    ip4_hdr(p1 + ETH, 20 + 20 + 1000, 6);
    tcp_hdr(p1 + ETH + 20, 20, 77, 0x18);
    pattern(p1 + ETH + 40, 1000, 2);
    set16(p1 + ETH + 36, fold16(pseudo(p1 + ETH, false, 6, 1020)));
    send_csum(f, &at, b + 2048, ETH + 40 + 1000,
              E810_TX_DESC_CMD_IIPT_IPV4_CSUM | CSUM_TCP, 20, 20);
    assert_int_equal(f->wire->n, 2);
    assert_true(ip4_ok(f->wire->frame[1] + ETH));
    assert_int_not_equal(be16(f->wire->frame[1] + ETH + 10), 0);
    assert_true(l4_ok(f->wire->frame[1] + ETH, false, 6));

    /* TCP/IPv6 and UDP/IPv6. */
    eth_hdr(p2, 0x86dd);
    ip6_hdr(p2 + ETH, 20 + 555, 6);
    tcp_hdr(p2 + ETH + 40, 20, 5, 0x10);
    pattern(p2 + ETH + 60, 555, 3);
    set16(p2 + ETH + 56, fold16(pseudo(p2 + ETH, true, 6, 575)));
    send_csum(f, &at, b + 4096, ETH + 60 + 555,
              E810_TX_DESC_CMD_IIPT_IPV6 | CSUM_TCP, 40, 20);
    eth_hdr(p3, 0x86dd);
    ip6_hdr(p3 + ETH, 8 + 100, 17);
    set16(p3 + ETH + 44, 108);
    pattern(p3 + ETH + 48, 100, 4);
    set16(p3 + ETH + 46, fold16(pseudo(p3 + ETH, true, 17, 108)));
    send_csum(f, &at, b + 6144, ETH + 48 + 100,
              E810_TX_DESC_CMD_IIPT_IPV6 | CSUM_UDP, 40, 8);
    assert_int_equal(f->wire->n, 4);
    assert_true(l4_ok(f->wire->frame[2] + ETH, true, 6));
    assert_true(l4_ok(f->wire->frame[3] + ETH, true, 17));
    assert_int_not_equal(be16(f->wire->frame[3] + ETH + 46), 0);
    assert_int_equal(f->h->core.lan.stats.tx_mdd, 0);
}

/* ---- bad requests ---- */

static void test_bad_offload_requests_dropped(void **state)
{
    Fixture *f = *state;
    size_t hlen = ETH + 20 + 20, pay = 4000;
    TsoReq good = { .len = hlen + pay, .maclen = ETH, .iplen = 20,
                    .l4len = 20, .chunk = 4096,
                    .cmd = E810_TX_DESC_CMD_IIPT_IPV4_CSUM | CSUM_TCP };
    TsoReq bad[7];
    unsigned at = 0, i;
    uint8_t *p;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    good.pkt = mem_alloc(f->h, good.len);
    p = mem_ptr(f->h, good.pkt);
    eth_hdr(p, 0x0800);
    ip4_hdr(p + ETH, 0, 6);
    tcp_hdr(p + ETH + 20, 20, 1, 0x10);
    good.ctx = tso_qw1(pay, 1000);
    for (i = 0; i < 7; i++) {
        bad[i] = good;
    }
    bad[0].ctx = tso_qw1(pay, E810_TSO_MSS_MIN - 1);
    bad[1].ctx = tso_qw1(pay, E810_TSO_MSS_MAX + 1);
    bad[2].ctx = tso_qw1(pay - 1, 1000);        /* length inconsistent */
    bad[3].l4len = 60;                          /* headers != the split */
    bad[4].cmd = E810_TX_DESC_CMD_IIPT_IPV4_CSUM;   /* TSO without L4T */
    bad[5].ctx = 0;                             /* L4T TCP without IIPT */
    bad[5].cmd = CSUM_TCP;
    bad[6].ctx = 0;                             /* MACLEN beyond the frame */
    bad[6].len = 200;
    bad[6].maclen = 254;
    bad[6].cmd = E810_TX_DESC_CMD_IIPT_IPV4 | CSUM_TCP;
    for (i = 0; i < 7; i++) {
        at = post_req(f, at, &bad[i]);
    }
    kick(f, 0, at);
    assert_int_equal(f->wire->n, 0);
    assert_int_equal(f->h->core.lan.stats.tx_mdd, 7);
    assert_int_equal(f->h->core.lan.stats.tx_dropped, 7);
    /* Every descriptor given back; the queue still works. */
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), at);
    at = post_req(f, at, &good);
    kick(f, 0, at);
    assert_int_equal(f->wire->n, 4);

    /* A queue whose context has no TSO_ENA may not segment. */
    assert_int_equal(add_txq_tso(f, 1, RING, 0, NULL, false), E810_AQ_RC_OK);
    txd_put(f, 1, 0, 0, good.ctx);
    txd_put(f, 1, 1, good.pkt, data_qw1(good.len, good.cmd |
                                        E810_TX_DESC_CMD_EOP |
                                        E810_TX_DESC_CMD_RS, ETH, 20, 20));
    kick(f, 1, 2);
    assert_int_equal(f->wire->n, 4);
    assert_int_equal(f->h->core.lan.stats.tx_mdd, 8);

    /* A context descriptor inside a packet is malformed. */
    txd_put(f, 0, at, good.pkt, data_qw1(100, 0, 0, 0, 0));
    txd_put(f, 0, at + 1, 0, good.ctx);
    txd_put(f, 0, at + 2, good.pkt, data_qw1(100, E810_TX_DESC_CMD_EOP |
                                             E810_TX_DESC_CMD_RS, 0, 0, 0));
    kick(f, 0, at + 3);
    assert_int_equal(f->wire->n, 4);
    assert_int_equal(f->h->core.lan.stats.tx_dropped, 9);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), at + 3);
}

/* ---- Rx packet type and checksum status ---- */

typedef struct RxCase {
    uint8_t frame[256];
    size_t len;
} RxCase;

/* A TCP/IPv4 frame with right checksums (VLAN-tagged if @vlan). */
static size_t tcp4_frame(uint8_t *p, bool vlan)
{
    size_t l2 = vlan ? ETH + 4 : ETH;

    eth_hdr(p, vlan ? 0x8100 : 0x0800);
    if (vlan) {
        set16(p + 14, 100);
        set16(p + 16, 0x0800);
    }
    ip4_hdr(p + l2, 20 + 20 + 64, 6);
    ip4_fix_csum(p + l2);
    tcp_hdr(p + l2 + 20, 20, 9, 0x18);
    pattern(p + l2 + 40, 64, 7);
    set16(p + l2 + 36, 0);
    set16(p + l2 + 36, (uint16_t)~fold16(sum16(pseudo(p + l2, false, 6, 84),
                                               p + l2 + 20, 84)));
    return l2 + 104;
}

static size_t udp6_frame(uint8_t *p)
{
    eth_hdr(p, 0x86dd);
    ip6_hdr(p + ETH, 8 + 50, 17);
    set16(p + ETH + 40, 1);
    set16(p + ETH + 42, 2);
    set16(p + ETH + 44, 58);
    set16(p + ETH + 46, 0);
    pattern(p + ETH + 48, 50, 8);
    set16(p + ETH + 46, (uint16_t)~fold16(sum16(pseudo(p + ETH, true, 17, 58),
                                                p + ETH + 40, 58)));
    return ETH + 40 + 58;
}

/* Receives @p and returns the write-back of the descriptor it used. */
static struct e810_rx_flex_desc_nic *rx_one(Fixture *f, const uint8_t *p,
                                            size_t len, unsigned *slot)
{
    assert_int_equal(e810_core_receive(&f->h->core, p, len), len);
    return rxd(f, (*slot)++);
}

static uint16_t ptype_of(const struct e810_rx_flex_desc_nic *d)
{
    return le16toh(d->ptype_flex_flags0) & E810_RX_FLEX_PTYPE;
}

#define ST_OK (E810_RX_FLEX_STATUS0_DD | E810_RX_FLEX_STATUS0_EOF)
#define ST_CK (ST_OK | E810_RX_FLEX_STATUS0_L3L4P)

static void test_rx_ptype_and_checksum_status(void **state)
{
    Fixture *f = *state;
    struct e810_rx_flex_desc_nic *d;
    uint8_t p[256];
    unsigned slot = 0;
    size_t n;

    rx_enable(f, 2048, 9728, 1);
    rx_post(f, 0, 32, 2048);

    n = tcp4_frame(p, false);
    d = rx_one(f, p, n, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_IPV4_TCP);
    assert_int_equal(le16toh(d->status_error0), ST_CK);
    /* No RSS key or LUT programmed: no hash, no RSS_VALID. */
    assert_int_equal(le32toh(d->rss_hash), 0);

    p[ETH + 8] ^= 1;                    /* TTL changed, checksum not */
    d = rx_one(f, p, n, &slot);
    assert_int_equal(le16toh(d->status_error0),
                     ST_CK | E810_RX_FLEX_STATUS0_IPE);
    p[ETH + 8] ^= 1;
    p[n - 1] ^= 0x40;                   /* a payload bit flipped */
    d = rx_one(f, p, n, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_IPV4_TCP);
    assert_int_equal(le16toh(d->status_error0),
                     ST_CK | E810_RX_FLEX_STATUS0_L4E);

    n = tcp4_frame(p, true);
    d = rx_one(f, p, n, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_IPV4_TCP);
    assert_int_equal(le16toh(d->status_error0), ST_CK);

    n = udp6_frame(p);
    d = rx_one(f, p, n, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_IPV6_UDP);
    assert_int_equal(le16toh(d->status_error0), ST_CK);
    p[ETH + 47] ^= 0xff;
    d = rx_one(f, p, n, &slot);
    assert_int_equal(le16toh(d->status_error0),
                     ST_CK | E810_RX_FLEX_STATUS0_L4E);
    set16(p + ETH + 46, 0);             /* "no checksum" is IPv4 only */
    d = rx_one(f, p, n, &slot);
    assert_int_equal(le16toh(d->status_error0),
                     ST_CK | E810_RX_FLEX_STATUS0_L4E);

    /* UDP/IPv4 without a checksum is fine. */
    eth_hdr(p, 0x0800);
    ip4_hdr(p + ETH, 20 + 8 + 20, 17);
    ip4_fix_csum(p + ETH);
    memset(p + ETH + 20, 0, 28);
    set16(p + ETH + 24, 28);
    d = rx_one(f, p, ETH + 48, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_IPV4_UDP);
    assert_int_equal(le16toh(d->status_error0), ST_CK);

    /* ICMP: the IP header is checked. A fragment: no L4 check. */
    p[ETH + 9] = 1;
    ip4_fix_csum(p + ETH);
    d = rx_one(f, p, ETH + 48, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_IPV4_ICMP);
    assert_int_equal(le16toh(d->status_error0), ST_CK);
    p[ETH + 9] = 6;
    set16(p + ETH + 6, 0x2000);         /* MF */
    ip4_fix_csum(p + ETH);
    d = rx_one(f, p, ETH + 48, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_IPV4_FRAG);
    assert_int_equal(le16toh(d->status_error0), ST_CK);

    /* ARP and an unknown EtherType: L2 types, nothing checked. */
    eth_hdr(p, 0x0806);
    memset(p + ETH, 0, 28);
    d = rx_one(f, p, ETH + 28, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_MAC_ARP);
    assert_int_equal(le16toh(d->status_error0), ST_OK);
    eth_hdr(p, 0x88b5);
    d = rx_one(f, p, 60, &slot);
    assert_int_equal(ptype_of(d), E810_PTYPE_MAC_PAY2);
    assert_int_equal(le16toh(d->status_error0), ST_OK);

    assert_int_equal(f->h->core.lan.stats.rx_ip_err, 1);
    assert_int_equal(f->h->core.lan.stats.rx_l4_err, 3);
}

/* ---- several queues ---- */

static void test_tx_queues_own_ring_doorbell_cause(void **state)
{
    Fixture *f = *state;
    uint64_t b = mem_alloc(f->h, RIG_QUEUES * 256);
    unsigned q;

    for (q = 0; q < RIG_QUEUES; q++) {
        uint8_t *p = mem_ptr(f->h, b + q * 256);

        assert_int_equal(add_txq(f, q, RING, 0, NULL), E810_AQ_RC_OK);
        wr32(f->h, E810_QINT_TQCTL(q), E810_INT_CTL_CAUSE_ENA | (q + 1));
        wr32(f->h, E810_GLINT_DYN_CTL(q + 1), E810_GLINT_DYN_CTL_INTENA);
        eth_hdr(p, 0x88b5);
        memset(p + ETH, 0xa0 + q, 100 - ETH);
        txd_put(f, q, 0, b + q * 256,
                data_qw1(100, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS,
                         0, 0, 0));
    }
    /* The last queue of the function exists, one more does not. */
    assert_int_equal(add_txq(f, E810_LAN_NUM_QUEUES - 1, RING, 0, NULL),
                     E810_AQ_RC_OK);
    assert_int_equal(add_txq(f, E810_LAN_NUM_QUEUES, RING, 0, NULL),
                     E810_AQ_RC_EINVAL);

    kick(f, 2, 1);
    assert_int_equal(f->wire->n, 1);
    assert_int_equal(f->wire->frame[0][ETH], 0xa2);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(2)), 1);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), 0);
    assert_int_equal(f->h->msix_count, 1);
    assert_int_equal(f->h->msix_last, 3);
    assert_int_equal(FIELD_GET(E810_TXD_DTYPE,
                               le64toh(txd_q(f, 2, 0)->cmd_type_offset_bsz)),
                     E810_TX_DESC_DTYPE_DESC_DONE);
    assert_int_equal(FIELD_GET(E810_TXD_DTYPE,
                               le64toh(txd_q(f, 1, 0)->cmd_type_offset_bsz)),
                     E810_TX_DESC_DTYPE_DATA);
    kick(f, 1, 1);
    assert_int_equal(f->wire->n, 2);
    assert_int_equal(f->wire->frame[1][ETH], 0xa1);
    assert_int_equal(f->h->msix_last, 2);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(1)), 1);
}

static void test_rx_queues_and_hold_rule(void **state)
{
    Fixture *f = *state;
    uint8_t p[128];
    unsigned q, k;

    for (q = 0; q < RIG_QUEUES; q++) {
        wr32(f->h, E810_QINT_RQCTL(q), E810_INT_CTL_CAUSE_ENA | (q + 1));
        wr32(f->h, E810_GLINT_DYN_CTL(q + 1), E810_GLINT_DYN_CTL_INTENA);
    }
    /* Queue 2 gets buffers before it is enabled, as ice_vsi_cfg_rxq()
     * posts them: they count once the queue runs. */
    rx_post_q(f, 2, 0, 16, 2048);
    rx_enable_q(f, 2, 2048, 9728, 1);
    wr32(f->h, E810_QRX_TAIL(2), 16);
    wr32(f->h, E810_QRX_CTRL(2), 0);
    rx_post_q(f, 2, 0, 16, 2048);
    wr32(f->h, E810_QRX_CTRL(2), E810_QRX_CTRL_QENA_REQ);
    assert_true(rd32(f->h, E810_QRX_CTRL(2)) & E810_QRX_CTRL_QENA_STAT);
    assert_int_equal(f->h->core.lan.rxq[2].tail, 16);

    rx_enable_q(f, 0, 2048, 9728, 1);
    rx_enable_q(f, 1, 2048, 9728, 1);
    rx_post_q(f, 1, 0, 8, 2048);
    eth_hdr(p, 0x88b5);
    memset(p + ETH, 0x5a, sizeof(p) - ETH);

    /* The switch sends everything to queue 0, which has no buffers: the
     * frame is held and the port waits for that queue only. */
    assert_true(e810_core_can_receive(&f->h->core));
    assert_int_equal(e810_core_receive(&f->h->core, p, sizeof(p)), 0);
    assert_false(e810_core_can_receive(&f->h->core));
    rx_post_q(f, 0, 0, 8, 2048);
    assert_true(e810_core_can_receive(&f->h->core));
    assert_int_equal(e810_core_receive(&f->h->core, p, sizeof(p)), sizeof(p));
    assert_int_equal(f->h->msix_last, 1);       /* RQCTL(0)'s vector */
    assert_memory_equal(mem_ptr(f->h, f->bufs), p, sizeof(p));

    /* Queue 0 full again: 7 more frames use its other descriptors. */
    for (k = 0; k < 7; k++) {
        assert_int_equal(e810_core_receive(&f->h->core, p, sizeof(p)),
                         sizeof(p));
    }
    assert_int_equal(e810_core_receive(&f->h->core, p, sizeof(p)), 0);
    /* The driver keeps feeding queue 1 and never queue 0: after enough
     * refills elsewhere the held frame is dropped, not kept forever. */
    for (k = 0; k < 63; k++) {
        wr32(f->h, E810_QRX_TAIL(1), 8 + 8 * (k & 1));
    }
    assert_false(e810_core_can_receive(&f->h->core));
    wr32(f->h, E810_QRX_TAIL(1), 8);
    assert_true(e810_core_can_receive(&f->h->core));
    assert_int_equal(e810_core_receive(&f->h->core, p, sizeof(p)), sizeof(p));
    assert_int_equal(f->h->core.lan.stats.rx_held_dropped, 1);

    /* Held again; disabling the queue releases it (dropped). */
    assert_int_equal(e810_core_receive(&f->h->core, p, sizeof(p)), 0);
    assert_false(e810_core_can_receive(&f->h->core));
    wr32(f->h, E810_QRX_CTRL(0), 0);
    assert_true(e810_core_can_receive(&f->h->core));
    assert_int_equal(e810_core_receive(&f->h->core, p, sizeof(p)), sizeof(p));
    assert_int_equal(f->h->core.lan.stats.rx_dropped, 1);
    assert_int_equal(f->h->core.lan.stats.rx_packets, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_tso_tcp_ipv4_64k),
        T(test_tso_tcp_ipv6_64k),
        T(test_uso_vlan_and_buffers_per_segment),
        T(test_tx_checksum_offload),
        T(test_bad_offload_requests_dropped),
        T(test_rx_ptype_and_checksum_status),
        T(test_tx_queues_own_ring_doorbell_cause),
        T(test_rx_queues_and_hold_rule),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_lan_offload", tests, NULL, NULL);
}
