/*
 * RoCEv2 ICRC (e810_icrc.c) against an independent reference.
 *
 * The reference here is written from the RoCEv2 definition alone: a
 * bit-at-a-time CRC-32 (reflected 0xEDB88320, all-ones start and final
 * XOR) over 8 bytes of 0xFF, the IP/UDP/BTH headers with the variant
 * fields forced to ones, and the rest. The known-answer frames were
 * computed outside this code base (Python's zlib.crc32 over the same
 * masked bytes).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e810_icrc.h"
#include "e810_roce_pkt.h"

static uint32_t ref_crc_bits(uint32_t crc, const uint8_t *p, size_t n)
{
    while (n--) {
        unsigned b;

        crc ^= *p++;
        for (b = 0; b < 8; b++) {
            crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
        }
    }
    return crc;
}

/* Reference ICRC of the frame's L3..end-4, masks applied by hand. */
static uint32_t ref_icrc(const uint8_t *l3, size_t len, int ipv4)
{
    uint8_t *m = malloc(len);
    size_t iphl = ipv4 ? 20 : 40;
    uint8_t ones[8];
    uint32_t crc;

    assert_non_null(m);
    memcpy(m, l3, len);
    if (ipv4) {
        m[1] = 0xff;            /* type of service */
        m[8] = 0xff;            /* time to live */
        m[10] = 0xff;           /* header checksum */
        m[11] = 0xff;
    } else {
        m[0] |= 0x0f;           /* traffic class (low nibble here) */
        m[1] = 0xff;            /* traffic class + flow label */
        m[2] = 0xff;
        m[3] = 0xff;
        m[7] = 0xff;            /* hop limit */
    }
    m[iphl + 6] = 0xff;         /* UDP checksum */
    m[iphl + 7] = 0xff;
    m[iphl + 8 + 4] = 0xff;     /* BTH FECN/BECN/resv */
    memset(ones, 0xff, sizeof(ones));
    crc = ref_crc_bits(0xffffffffu, ones, 8);
    crc = ref_crc_bits(crc, m, len);
    free(m);
    return ~crc;
}

/* IPv4 RC SEND_ONLY, QPN 0x11, PSN 5, AckReq, 16 bytes "RoCEv2 ICRC test". */
static const uint8_t kat_v4[74] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00, 0x45, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
    0xb7, 0x5d, 0xc0, 0xa8, 0x01, 0x01, 0xc0, 0xa8, 0x01, 0x02, 0xc0, 0x00,
    0x12, 0xb7, 0x00, 0x28, 0x00, 0x00, 0x04, 0x00, 0xff, 0xff, 0x00, 0x00,
    0x00, 0x11, 0x80, 0x00, 0x00, 0x05, 0x52, 0x6f, 0x43, 0x45, 0x76, 0x32,
    0x20, 0x49, 0x43, 0x52, 0x43, 0x20, 0x74, 0x65, 0x73, 0x74, 0x5b, 0x21,
    0xaa, 0xd0,
};
#define KAT_V4_ICRC 0xd0aa215bu
/* The same BTH/payload over IPv6 (tclass 0x12, flow 0xabcde, hop 64). */
#define KAT_V6_ICRC 0x30b9ffebu

static void kat_pkt(E810RocePkt *p, int ipv4)
{
    unsigned i;

    memset(p, 0, sizeof(*p));
    memcpy(p->dmac, "\x02\x00\x00\x00\x00\x02", 6);
    memcpy(p->smac, "\x02\x00\x00\x00\x00\x01", 6);
    p->ipv4 = ipv4;
    p->hop_limit = 64;
    if (ipv4) {
        p->sip[3] = 0xc0a80101;
        p->dip[3] = 0xc0a80102;
    } else {
        p->tclass = 0x12;
        p->flow_label = 0xabcde;
        for (i = 0; i < 4; i++) {
            p->sip[i] = (4 * i) << 24 | (4 * i + 1) << 16 | (4 * i + 2) << 8 |
                        (4 * i + 3);
            p->dip[i] = p->sip[i] + 0x10101010;
        }
    }
    p->sport = 0xc000;
    p->opcode = E810_BTH_RC_SEND_ONLY;
    p->pkey = 0xffff;
    p->dqpn = 0x11;
    p->ackreq = true;
    p->psn = 5;
}

static void test_crc32_check_value(void **state)
{
    const char *s = "123456789";

    /* The catalogued check value of CRC-32/ISO-HDLC. */
    assert_int_equal(e810_crc32(0, s, 9), 0xcbf43926u);
    assert_int_equal(e810_crc32_clmul(0, s, 9), 0xcbf43926u);
    assert_int_equal(~ref_crc_bits(0xffffffffu, (const uint8_t *)s, 9),
                     0xcbf43926u);
}

static void test_crc32_matches_bitwise(void **state)
{
    uint8_t buf[4099];
    size_t len;

    srand(7);
    for (len = 0; len < sizeof(buf); len = len * 3 / 2 + 1) {
        size_t i, start = len % 8;

        for (i = 0; i < sizeof(buf); i++) {
            buf[i] = rand();
        }
        /* Unaligned starts exercise the 8-byte loop's edges too. */
        assert_int_equal(e810_crc32(0x12345678u, buf + start, len - start),
                         ~ref_crc_bits(~0x12345678u, buf + start,
                                       len - start));
        assert_int_equal(e810_crc32_clmul(0x12345678u, buf + start,
                                          len - start),
                         ~ref_crc_bits(~0x12345678u, buf + start,
                                       len - start));
    }
}

/*
 * Each carry-less multiply form (128-bit, 512-bit) against the table
 * alone: every length 0..700 (both sides of the 64- and 256-byte
 * thresholds, odd ones, tails of 1..15 after the 16-byte blocks) at every
 * start offset 0..15, then random lengths up to 9 KiB at random offsets
 * and seeds. A form the host lacks falls back to the next one down; the
 * test says which it could not run.
 */
static void test_crc32_accelerated_matches_table(void **state)
{
    static uint8_t buf[9216 + 16];
    unsigned impl;
    size_t len, off, i;
    uint32_t seed;

    srand(11);
    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = rand();
    }
    for (impl = E810_CRC_CLMUL; impl <= E810_CRC_VCLMUL; impl++) {
        if (impl > e810_crc32_best()) {
            print_message("# CRC form %u not on this host: form %u\n", impl,
                          e810_crc32_best());
        }
        seed = 0xffffffffu;
        for (len = 0; len <= 700; len++) {
            for (off = 0; off < 16; off++) {
                assert_int_equal(
                    e810_crc32_update_with(impl, seed, buf + off, len),
                    e810_crc32_update_table(seed, buf + off, len));
            }
        }
        for (i = 0; i < 2000; i++) {
            len = (size_t)rand() % 9217;
            off = (size_t)rand() % 16;
            seed = (uint32_t)rand() << 1 ^ (uint32_t)rand();
            assert_int_equal(e810_crc32_update_with(impl, seed, buf + off, len),
                             e810_crc32_update_table(seed, buf + off, len));
        }
        /* And one long run against the bitwise reference. */
        assert_int_equal(e810_crc32_update_with(impl, 0x12345678u, buf + 3,
                                                9000),
                         ref_crc_bits(0x12345678u, buf + 3, 9000));
    }
}

static void test_known_answer_ipv4(void **state)
{
    uint8_t frame[256];
    E810RocePkt p;
    size_t hl, len;

    kat_pkt(&p, 1);
    hl = e810_roce_hdr_len(&p);
    memcpy(frame + hl, "RoCEv2 ICRC test", 16);
    len = e810_roce_finish(&p, frame, 16, true);
    assert_int_equal(len, sizeof(kat_v4));
    assert_memory_equal(frame, kat_v4, sizeof(kat_v4));
    assert_int_equal(e810_icrc(kat_v4 + 14, sizeof(kat_v4) - 14 - 4, true),
                     KAT_V4_ICRC);
    assert_int_equal(ref_icrc(kat_v4 + 14, sizeof(kat_v4) - 14 - 4, 1),
                     KAT_V4_ICRC);
}

static void test_known_answer_ipv6(void **state)
{
    uint8_t frame[256];
    E810RocePkt p;
    size_t hl, len;
    uint32_t wire;

    kat_pkt(&p, 0);
    hl = e810_roce_hdr_len(&p);
    memcpy(frame + hl, "RoCEv2 ICRC test", 16);
    len = e810_roce_finish(&p, frame, 16, true);
    assert_int_equal(len, 14 + 40 + 8 + 12 + 16 + 4);
    wire = frame[len - 4] | frame[len - 3] << 8 | frame[len - 2] << 16 |
           (uint32_t)frame[len - 1] << 24;
    assert_int_equal(wire, KAT_V6_ICRC);
    assert_int_equal(ref_icrc(frame + 14, len - 14 - 4, 0), KAT_V6_ICRC);
}

/* Random packets of every shape: model == reference. */
static void test_random_packets_match_reference(void **state)
{
    static const uint8_t ops[] = {
        E810_BTH_RC_SEND_FIRST, E810_BTH_RC_SEND_ONLY_IMM,
        E810_BTH_RC_WRITE_ONLY_IMM, E810_BTH_RC_READ_REQ,
        E810_BTH_RC_READ_RESP_FIRST, E810_BTH_RC_ACK,
        E810_BTH_RC_SEND_LAST_INV, E810_BTH_UD_SEND_ONLY_IMM,
    };
    static uint8_t frame[E810_ROCE_MAX_FRAME];
    unsigned n;

    srand(11);
    for (n = 0; n < 400; n++) {
        E810RocePkt p;
        unsigned f, i;
        uint32_t paylen = 0;
        size_t hl, len, l3;

        memset(&p, 0, sizeof(p));
        p.opcode = ops[n % sizeof(ops)];
        f = e810_roce_op_flags(p.opcode);
        p.ipv4 = n & 1;
        p.vlan = n & 2;
        p.tci = rand();
        p.tclass = rand();
        p.hop_limit = rand();
        p.flow_label = rand() & 0xfffff;
        for (i = 0; i < 4; i++) {
            p.sip[i] = rand();
            p.dip[i] = rand();
        }
        p.sport = rand();
        p.pkey = rand();
        p.dqpn = rand() & 0xffffff;
        p.psn = rand() & 0xffffff;
        p.becn = n & 4;
        p.va = (uint64_t)rand() << 32 | rand();
        p.rkey = rand();
        p.imm = rand();
        if (f & E810_OPF_PAYLOAD) {
            paylen = rand() % (E810_ROCE_MAX_MTU + 1);
        }
        hl = e810_roce_hdr_len(&p);
        for (i = 0; i < paylen; i++) {
            frame[hl + i] = rand();
        }
        len = e810_roce_finish(&p, frame, paylen, true);
        l3 = 14 + (p.vlan ? 4 : 0);
        assert_int_equal(e810_icrc(frame + l3, len - l3 - 4, p.ipv4),
                         ref_icrc(frame + l3, len - l3 - 4, p.ipv4));
    }
}

/* Fields routers change do not change the ICRC; anything else does. */
static void test_masked_fields(void **state)
{
    uint8_t f[74];
    uint32_t base = e810_icrc(kat_v4 + 14, 56, true);
    static const unsigned masked[] = { 14 + 1, 14 + 8, 14 + 10, 14 + 11,
                                       34 + 6, 34 + 7, 42 + 4 };
    unsigned i;

    for (i = 0; i < sizeof(masked) / sizeof(masked[0]); i++) {
        memcpy(f, kat_v4, sizeof(f));
        f[masked[i]] ^= 0x5a;
        assert_int_equal(e810_icrc(f + 14, 56, true), base);
    }
    for (i = 14; i < 70; i++) {
        unsigned k;
        bool is_masked = false;

        for (k = 0; k < sizeof(masked) / sizeof(masked[0]); k++) {
            is_masked |= masked[k] == i;
        }
        if (is_masked) {
            continue;
        }
        memcpy(f, kat_v4, sizeof(f));
        f[i] ^= 0x01;
        assert_int_not_equal(e810_icrc(f + 14, 56, true), base);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32_check_value),
        cmocka_unit_test(test_crc32_matches_bitwise),
        cmocka_unit_test(test_crc32_accelerated_matches_table),
        cmocka_unit_test(test_known_answer_ipv4),
        cmocka_unit_test(test_known_answer_ipv6),
        cmocka_unit_test(test_random_packets_match_reference),
        cmocka_unit_test(test_masked_fields),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_icrc", tests, NULL, NULL);
}
