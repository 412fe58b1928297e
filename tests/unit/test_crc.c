/*
 * The model's CRCs as every build of it computes them: e810_crc32()
 * (zlib's crc32_z(), or the CRC an embedder installs: QEMU's glue
 * installs e810_crc32_clmul()) and e810_crc32c() (QEMU's crc32c() there,
 * host_crc32c.c here), against published vectors: the catalogued check
 * values of CRC-32/ISO-HDLC and CRC-32/ISCSI, and the CRC32c examples of
 * RFC 3720, appendix B.4. Both continue across calls (zlib conventions),
 * which the ICRC and the MPA framing rely on.
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
#include <zlib.h>

#include "e810_crc32c.h"
#include "e810_icrc.h"

static const char check_input[] = "123456789";

/* RFC 3720 B.4: 32 bytes each, and the CRC as a 32-bit value. */
static void rfc3720_buf(uint8_t *b, unsigned which)
{
    unsigned i;

    for (i = 0; i < 32; i++) {
        switch (which) {
        case 0: b[i] = 0; break;
        case 1: b[i] = 0xff; break;
        case 2: b[i] = i; break;
        default: b[i] = 31 - i; break;
        }
    }
}

static void test_crc32c_vectors(void **state)
{
    static const uint32_t want[4] = {
        0x8a9136aau, 0x62a8ab43u, 0x46dd794eu, 0x113fdb5cu,
    };
    /* An iSCSI SCSI Read (10) command PDU header (RFC 3720 B.4). */
    static const uint8_t read_pdu[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00,
    };
    uint8_t b[32];
    unsigned i;

    assert_int_equal(e810_crc32c(0, check_input, 9), 0xe3069283u);
    for (i = 0; i < 4; i++) {
        rfc3720_buf(b, i);
        assert_int_equal(e810_crc32c(0, b, sizeof(b)), want[i]);
    }
    assert_int_equal(e810_crc32c(0, read_pdu, sizeof(read_pdu)),
                     0xd9963a56u);
    assert_int_equal(e810_crc32c(0, b, 0), 0);
}

static void test_crc32_vectors(void **state)
{
    uint8_t b[32];

    assert_int_equal(e810_crc32(0, check_input, 9), 0xcbf43926u);
    assert_int_equal(e810_crc32_clmul(0, check_input, 9), 0xcbf43926u);
    /* 32 zero bytes: zlib.crc32(bytes(32)) */
    memset(b, 0, sizeof(b));
    assert_int_equal(e810_crc32(0, b, sizeof(b)), 0x190a55adu);
    assert_int_equal(e810_crc32_clmul(0, b, sizeof(b)), 0x190a55adu);
    assert_int_equal(e810_crc32(0, b, 0), 0);
}

/* A CRC over a buffer equals the CRC continued over any cut of it. */
static void test_continuation(void **state)
{
    static uint8_t buf[9000];
    size_t i, cut;

    srand(3);
    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = rand();
    }
    for (cut = 0; cut <= sizeof(buf); cut += 997) {
        assert_int_equal(e810_crc32c(e810_crc32c(0, buf, cut), buf + cut,
                                     sizeof(buf) - cut),
                         e810_crc32c(0, buf, sizeof(buf)));
        assert_int_equal(e810_crc32(e810_crc32(0, buf, cut), buf + cut,
                                    sizeof(buf) - cut),
                         e810_crc32(0, buf, sizeof(buf)));
    }
}

/*
 * The hand-written CRC-32 is zlib's function: every length 0..1100 at
 * every start offset 0..15 and random long runs, from random CRCs.
 */
static void test_clmul_is_zlib(void **state)
{
    static uint8_t buf[16384 + 16];
    size_t len, off, i;
    uint32_t seed;

    srand(5);
    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = rand();
    }
    for (len = 0; len <= 1100; len++) {
        for (off = 0; off < 16; off++) {
            seed = (uint32_t)(len * 2654435761u + off);
            assert_int_equal(e810_crc32_clmul(seed, buf + off, len),
                             crc32_z(seed, buf + off, len));
        }
    }
    for (i = 0; i < 500; i++) {
        len = (size_t)rand() % 16385;
        off = (size_t)rand() % 16;
        seed = (uint32_t)rand() << 1 ^ (uint32_t)rand();
        assert_int_equal(e810_crc32_clmul(seed, buf + off, len),
                         crc32_z(seed, buf + off, len));
    }
}

/* e810_crc32() is zlib's until an embedder installs its own, and back. */
static uint32_t calls;
static uint32_t counting_crc32(uint32_t crc, const void *buf, size_t len)
{
    calls++;
    return crc32_z(crc, buf, len);
}

static void test_installed_impl(void **state)
{
    calls = 0;
    assert_int_equal(e810_crc32(0, check_input, 9), 0xcbf43926u);
    assert_int_equal(calls, 0);
    e810_crc32_set_impl(counting_crc32);
    assert_int_equal(e810_crc32(0, check_input, 9), 0xcbf43926u);
    assert_int_equal(calls, 1);
    e810_crc32_set_impl(NULL);
    assert_int_equal(e810_crc32(0, check_input, 9), 0xcbf43926u);
    assert_int_equal(calls, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32c_vectors),
        cmocka_unit_test(test_crc32_vectors),
        cmocka_unit_test(test_continuation),
        cmocka_unit_test(test_clmul_is_zlib),
        cmocka_unit_test(test_installed_impl),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_crc", tests, NULL, NULL);
}
