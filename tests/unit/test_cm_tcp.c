/*
 * TCP segments of the iWARP connection manager library
 * (lib/irdma-cm/tcp.c): ILQ receive buffers (IPv4 header at byte 20, IPv6
 * at 0, TCP at 40: upstream irdma_puda_get_tcpip_info()) built by hand and
 * parsed, every malformed field refused; segments built as upstream's
 * irdma_form_ah_cm_frame() does (SYN options MSS, WS, EOL) checked byte by
 * byte and parsed back; two ends' sequence spaces (e810cm_tcb) through a
 * handshake, MPA payloads, FIN and RST, and the segments they must drop.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cm.h"

/* An ILQ buffer: IPv4 192.168.81.2:40000 -> 192.168.81.1:7301. */
static size_t ilq_v4(uint8_t *b, const uint8_t *tcp, size_t tcp_len)
{
    size_t tot = 20 + tcp_len;

    memset(b, 0, 40);
    b[20] = 0x45;
    b[21] = 0x10;
    b[22] = tot >> 8;
    b[23] = tot & 0xff;
    b[26] = 0x40;               /* DF */
    b[28] = 64;
    b[29] = 6;
    b[32] = 192; b[33] = 168; b[34] = 81; b[35] = 2;
    b[36] = 192; b[37] = 168; b[38] = 81; b[39] = 1;
    memcpy(b + 40, tcp, tcp_len);
    return 40 + tcp_len;
}

/* SYN from port 40000 to 7301, seq 0x01020304, MSS 1460, WS 7. */
static const uint8_t SYN[] = {
    0x9c, 0x40, 0x1c, 0x85, 0x01, 0x02, 0x03, 0x04,
    0x00, 0x00, 0x00, 0x00, 0xa0, 0x02, 0xfa, 0xf0,
    0x00, 0x00, 0x00, 0x00,
    0x02, 0x04, 0x05, 0xb4,     /* MSS 1460 */
    0x04, 0x02,                 /* SACK permitted: ignored */
    0x08, 0x0a, 1, 2, 3, 4, 0, 0, 0, 0, /* timestamps: ignored */
    0x01,                       /* NOP */
    0x03, 0x03, 0x07,           /* WS 7 */
};

static void test_parse_syn_v4(void **state)
{
    uint8_t b[128];
    size_t n = ilq_v4(b, SYN, sizeof(SYN));
    struct e810cm_seg s;

    assert_int_equal(e810cm_seg_parse(b, n, true, &s), 0);
    assert_true(s.ipv4);
    assert_int_equal(s.rip[0], 0xc0a85102);
    assert_int_equal(s.lip[0], 0xc0a85101);
    assert_int_equal(s.rport, 40000);
    assert_int_equal(s.lport, 7301);
    assert_int_equal(s.seq, 0x01020304);
    assert_int_equal(s.flags, E810CM_TCP_SYN);
    assert_int_equal(s.window, 0xfaf0);
    assert_int_equal(s.hlen, 40);
    assert_true(s.has_mss);
    assert_int_equal(s.mss, 1460);
    assert_true(s.has_ws);
    assert_int_equal(s.ws, 7);
    assert_int_equal(s.payload_len, 0);
    assert_int_equal(s.tos, 0x10);
    assert_int_equal(s.ttl, 64);
}

static void test_parse_payload_v6(void **state)
{
    uint8_t b[128], tcp[24];
    struct e810cm_seg s;
    int i;

    memset(b, 0, sizeof(b));
    b[0] = 0x60;
    b[5] = sizeof(tcp);         /* payload length */
    b[6] = 6;
    b[7] = 255;
    for (i = 0; i < 16; i++) {
        b[8 + i] = 0x20 + i;    /* source */
        b[24 + i] = 0x40 + i;   /* destination */
    }
    memset(tcp, 0, sizeof(tcp));
    tcp[0] = 0x12; tcp[1] = 0x34; tcp[2] = 0x1c; tcp[3] = 0x85;
    tcp[12] = 0x50;
    tcp[13] = E810CM_TCP_ACK | E810CM_TCP_PSH;
    memcpy(tcp + 20, "MPA!", 4);
    memcpy(b + 40, tcp, sizeof(tcp));
    assert_int_equal(e810cm_seg_parse(b, 40 + sizeof(tcp), false, &s), 0);
    assert_false(s.ipv4);
    assert_int_equal(s.rip[0], 0x20212223);
    assert_int_equal(s.rip[3], 0x2c2d2e2f);
    assert_int_equal(s.lip[0], 0x40414243);
    assert_int_equal(s.lport, 7301);
    assert_int_equal(s.payload_len, 4);
    assert_memory_equal(s.payload, "MPA!", 4);
    assert_ptr_equal(s.payload, b + 60);
    assert_false(s.has_mss);
    assert_int_equal(s.ttl, 255);
    /* the CQE's IPV4 flag decides the layout */
    assert_int_equal(e810cm_seg_parse(b, 40 + sizeof(tcp), true, &s),
                     -EINVAL);
}

/* Each corruption of a valid buffer must be refused. */
static void test_parse_refuses(void **state)
{
    uint8_t good[128], b[128];
    size_t n = ilq_v4(good, SYN, sizeof(SYN));
    struct e810cm_seg s;
    static const struct {
        size_t off;
        uint8_t val;
    } bad[] = {
        { 20, 0x46 },           /* IPv4 options */
        { 20, 0x65 },           /* version */
        { 23, 0x00 },           /* total length */
        { 26, 0x20 },           /* more fragments */
        { 27, 0x01 },           /* fragment offset */
        { 29, 17 },             /* UDP */
        { 52, 0x40 },           /* data offset 4 */
        { 52, 0xf0 },           /* data offset past the segment */
        { 40, 0 }, { 41, 0 },   /* source port 0 */
        { 61, 0x03 },           /* MSS option of length 3 */
        { 61, 0x40 },           /* MSS option past the header */
        { 78, 0x04 },           /* WS option past the header */
        { 78, 0x02 },           /* WS option of length 2 */
        { 79, 0x00 },           /* an option cut at the end */
    };
    unsigned int i;

    assert_int_equal(e810cm_seg_parse(good, n, true, &s), 0);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        memcpy(b, good, n);
        b[bad[i].off] = bad[i].val;
        if (bad[i].off == 40 || bad[i].off == 41) {
            b[40] = 0;
            b[41] = 0;
        }
        if (bad[i].off == 79) {
            /* NOP, WS -> NOP, NOP, NOP, an MSS kind without its length */
            b[77] = 0x01;
            b[78] = 0x01;
            b[79] = 0x02;
        }
        assert_int_equal(e810cm_seg_parse(b, n, true, &s), -EINVAL);
    }
    /* a second MSS option */
    memcpy(b, good, n);
    b[64] = 0x02; b[65] = 0x04; b[66] = 0x05; b[67] = 0xb4;
    b[68] = 0x01; b[69] = 0x01; b[70] = 0x01; b[71] = 0x01;
    b[72] = 0x01; b[73] = 0x01;
    assert_int_equal(e810cm_seg_parse(b, n, true, &s), -EINVAL);
    /* lengths */
    assert_int_equal(e810cm_seg_parse(good, 59, true, &s), -EINVAL);
    assert_int_equal(e810cm_seg_parse(good, n - 1, true, &s), -EINVAL);
    assert_int_equal(e810cm_seg_parse(NULL, n, true, &s), -EINVAL);
}

static void test_ws_capped(void **state)
{
    uint8_t b[128], syn[sizeof(SYN)];
    size_t n;
    struct e810cm_seg s;

    memcpy(syn, SYN, sizeof(SYN));
    syn[sizeof(SYN) - 1] = 20;
    n = ilq_v4(b, syn, sizeof(syn));
    assert_int_equal(e810cm_seg_parse(b, n, true, &s), 0);
    assert_int_equal(s.ws, 14);
}

static void test_build_synack(void **state)
{
    struct e810cm_seg s = {
        .lport = 7301, .rport = 40000, .seq = 0xa0b0c0d0,
        .ack = 0x01020305, .flags = E810CM_TCP_SYN | E810CM_TCP_ACK,
        .window = 0xffff, .has_mss = true, .mss = 1460, .has_ws = true,
        .ws = 2,
    };
    static const uint8_t want[] = {
        0x1c, 0x85, 0x9c, 0x40, 0xa0, 0xb0, 0xc0, 0xd0,
        0x01, 0x02, 0x03, 0x05, 0x70, 0x12, 0xff, 0xff,
        0x00, 0x00, 0x00, 0x00,
        0x02, 0x04, 0x05, 0xb4, 0x03, 0x03, 0x02, 0x00,
    };
    uint8_t out[64], b[128];
    struct e810cm_seg p;
    size_t n;

    assert_int_equal(e810cm_seg_build(out, sizeof(out), &s),
                     (int)sizeof(want));
    assert_memory_equal(out, want, sizeof(want));
    assert_int_equal(s.hlen, 28);
    /* what we send parses back (from the other end's view) */
    n = ilq_v4(b, out, sizeof(want));
    assert_int_equal(e810cm_seg_parse(b, n, true, &p), 0);
    assert_int_equal(p.rport, 7301);
    assert_int_equal(p.lport, 40000);
    assert_int_equal(p.mss, 1460);
    assert_int_equal(p.ws, 2);
}

static void test_build_payload_and_refusals(void **state)
{
    static const uint8_t pd[5] = { 1, 2, 3, 4, 5 };
    struct e810cm_seg s = {
        .lport = 1, .rport = 2, .flags = E810CM_TCP_ACK,
        .payload = pd, .payload_len = sizeof(pd),
    };
    uint8_t out[64];

    assert_int_equal(e810cm_seg_build(out, sizeof(out), &s), 25);
    assert_int_equal(out[12], 0x50);
    assert_memory_equal(out + 20, pd, sizeof(pd));
    assert_int_equal(e810cm_seg_build(out, 24, &s), -ENOSPC);
    s.has_mss = true;           /* MSS without WS */
    assert_int_equal(e810cm_seg_build(out, sizeof(out), &s), -EINVAL);
    s.has_ws = true;
    s.ws = 15;
    assert_int_equal(e810cm_seg_build(out, sizeof(out), &s), -EINVAL);
    s.ws = 2;
    s.payload = NULL;
    assert_int_equal(e810cm_seg_build(out, sizeof(out), &s), -EINVAL);
}

static void test_seq_before(void **state)
{
    assert_true(e810cm_seq_before(1, 2));
    assert_false(e810cm_seq_before(2, 1));
    assert_false(e810cm_seq_before(5, 5));
    assert_true(e810cm_seq_before(0xfffffff0u, 0x10));
    assert_false(e810cm_seq_before(0x10, 0xfffffff0u));
}

/* ---- sequence spaces of both ends (e810cm_tcb) -------------------------- */

/* Sends from @from a segment, delivers it to @to (parsed from an ILQ buffer). */
static int hop(struct e810cm_tcb *from, struct e810cm_tcb *to, uint8_t flags,
               const char *pd, struct e810cm_rx *rx, struct e810cm_seg *seen)
{
    uint8_t seg[256], b[512];
    int n = e810cm_tcb_tx(from, flags, (const uint8_t *)pd,
                          pd ? strlen(pd) : 0, seg, sizeof(seg));

    assert_true(n > 0);
    assert_int_equal(e810cm_seg_parse(b, ilq_v4(b, seg, n), true, seen), 0);
    return e810cm_tcb_rx(to, seen, rx);
}

static void pair(struct e810cm_tcb *a, struct e810cm_tcb *b)
{
    e810cm_tcb_init(a, 1000, 1460, 536);
    e810cm_tcb_init(b, 0xfffffff0u, 8960, 536);
    a->lport = 40000; a->rport = 7301;
    b->lport = 7301; b->rport = 40000;
}

static void test_tcb_whole_exchange(void **state)
{
    struct e810cm_tcb a, b;
    struct e810cm_rx rx;
    struct e810cm_seg s;

    pair(&a, &b);
    /* SYN: options, SYN takes one number */
    assert_int_equal(hop(&a, &b, E810CM_TCP_SYN, NULL, &rx, &s), 0);
    assert_true(s.has_mss && s.has_ws);
    assert_int_equal(s.ws, 2);
    assert_int_equal(s.window, 0xffff);
    assert_int_equal(rx.num, 1);
    assert_int_equal(rx.ev[0], E810CM_EV_RX_SYN);
    assert_int_equal(a.snd_nxt, 1001);
    assert_int_equal(b.rcv_nxt, 1001);
    assert_int_equal(b.mss, 1460);          /* lowered to the peer's */
    assert_int_equal(b.snd_wscale, 2);
    assert_int_equal(b.snd_wnd, 0xffff);    /* a SYN's window: unscaled */
    /* SYN-ACK over the sequence wrap */
    assert_int_equal(hop(&b, &a, E810CM_TCP_SYN | E810CM_TCP_ACK, NULL,
                         &rx, &s), 0);
    assert_int_equal(rx.ev[0], E810CM_EV_RX_SYNACK);
    assert_int_equal(a.rcv_nxt, 0xfffffff1u);
    /* ACK with the MPA Request: an ACK event and the payload */
    assert_int_equal(hop(&a, &b, E810CM_TCP_ACK, "request", &rx, &s), 0);
    assert_int_equal(rx.num, 1);
    assert_int_equal(rx.ev[0], E810CM_EV_RX_ACK);
    assert_int_equal(rx.data_len, 7);
    assert_memory_equal(rx.data, "request", 7);
    assert_int_equal(b.snd_wnd, 0xffffu << 2);
    /* the same segment again: nothing new */
    assert_int_equal(e810cm_tcb_rx(&b, &s, &rx), -EINVAL);
    /* reply; then a FIN with payload, counted once */
    assert_int_equal(hop(&b, &a, E810CM_TCP_ACK, "reply", &rx, &s), 0);
    assert_int_equal(rx.ev[0], E810CM_EV_RX_ACK);
    assert_int_equal(rx.data_len, 5);
    assert_int_equal(hop(&a, &b, E810CM_TCP_ACK | E810CM_TCP_FIN, "x", &rx,
                         &s), 0);
    assert_int_equal(rx.num, 2);
    assert_int_equal(rx.ev[0], E810CM_EV_RX_ACK);
    assert_int_equal(rx.ev[1], E810CM_EV_RX_FIN);
    assert_int_equal(rx.data_len, 1);
    assert_int_equal(b.rcv_nxt, a.snd_nxt);
    assert_true(b.fin_rcvd);
    /* an RST in the window */
    assert_int_equal(hop(&b, &a, E810CM_TCP_RST, NULL, &rx, &s), 0);
    assert_int_equal(rx.ev[0], E810CM_EV_RX_RST);
}

static void test_tcb_refuses(void **state)
{
    struct e810cm_tcb a, b, c;
    struct e810cm_rx rx;
    struct e810cm_seg s;

    pair(&a, &b);
    /* nothing but a SYN or an RST before the peer's SYN */
    c = a;
    assert_int_equal(hop(&b, &c, E810CM_TCP_ACK, NULL, &rx, &s), -EINVAL);
    assert_int_equal(hop(&a, &b, E810CM_TCP_SYN, NULL, &rx, &s), 0);
    /* a retransmitted SYN is not a new connection */
    a.snd_nxt--;
    assert_int_equal(hop(&a, &b, E810CM_TCP_SYN, NULL, &rx, &s), -EINVAL);
    /* a SYN-ACK acknowledging something else: reset */
    c = a;
    c.snd_nxt += 5;
    assert_int_equal(hop(&b, &c, E810CM_TCP_SYN | E810CM_TCP_ACK, NULL,
                         &rx, &s), -ECONNRESET);
    b.snd_nxt--;
    assert_int_equal(hop(&b, &a, E810CM_TCP_SYN | E810CM_TCP_ACK, NULL,
                         &rx, &s), 0);
    /* an ACK of data never sent, or behind the window, is dropped */
    c = a;
    c.rcv_nxt += 7;
    assert_int_equal(hop(&c, &b, E810CM_TCP_ACK, NULL, &rx, &s), -EINVAL);
    c = a;
    c.snd_nxt += 0x40000;
    assert_int_equal(hop(&c, &b, E810CM_TCP_ACK, NULL, &rx, &s), -EINVAL);
    c = a;
    c.snd_nxt -= 10;
    assert_int_equal(hop(&c, &b, E810CM_TCP_ACK, NULL, &rx, &s), -EINVAL);
    /* an RST out of the window is dropped */
    c = a;
    c.snd_nxt += 0x40000;
    assert_int_equal(hop(&c, &b, E810CM_TCP_RST, NULL, &rx, &s), -EINVAL);
}

static void test_tcb_mss(void **state)
{
    struct e810cm_tcb a, b;
    struct e810cm_rx rx;
    struct e810cm_seg s;

    pair(&a, &b);
    a.mss = 200;                /* below b's floor: the SYN is dropped */
    assert_int_equal(hop(&a, &b, E810CM_TCP_SYN, NULL, &rx, &s), -EINVAL);
    assert_false(b.synced);
}

/* 1 s doubling to 12 s, 32 retransmissions, then the give-up. */
static void test_retx_schedule(void **state)
{
    static const uint32_t first[] = { 1000, 2000, 4000, 8000, 12000, 12000 };
    uint32_t i, total = 0;

    (void)state;
    assert_int_equal(e810cm_retx_timeout(0), 0);
    for (i = 0; i < 6; i++) {
        assert_int_equal(e810cm_retx_timeout(i + 1), first[i]);
    }
    for (i = 1; i <= E810CM_RETX_MAX + 1; i++) {
        assert_true(e810cm_retx_timeout(i) >= E810CM_RETX_FIRST_MS);
        assert_true(e810cm_retx_timeout(i) <= E810CM_RETX_MAX_MS);
        total += e810cm_retx_timeout(i);
    }
    assert_int_equal(e810cm_retx_timeout(E810CM_RETX_MAX + 2), 0);
    assert_int_equal(e810cm_retx_timeout(~0u), 0);
    /* 1 + 2 + 4 + 8 s, then 29 times 12 s. */
    assert_int_equal(total, 15000 + 29 * 12000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_syn_v4),
        cmocka_unit_test(test_parse_payload_v6),
        cmocka_unit_test(test_parse_refuses),
        cmocka_unit_test(test_ws_capped),
        cmocka_unit_test(test_build_synack),
        cmocka_unit_test(test_build_payload_and_refusals),
        cmocka_unit_test(test_seq_before),
        cmocka_unit_test(test_tcb_whole_exchange),
        cmocka_unit_test(test_tcb_refuses),
        cmocka_unit_test(test_tcb_mss),
        cmocka_unit_test(test_retx_schedule),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("irdma_cm_tcp", tests, NULL, NULL);
}
