/*
 * CRC32c for the host builds of the device model (e810_crc32c.h): QEMU
 * links its own crc32c() instead. Table driven, a byte at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "e810_crc32c.h"

static uint32_t crc_table[256];

static void crc_init(void)
{
    uint32_t i, k, c;

    for (i = 0; i < 256; i++) {
        c = i;
        for (k = 0; k < 8; k++) {
            c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
        }
        crc_table[i] = c;
    }
}

uint32_t e810_crc32c(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    if (!crc_table[1]) {
        crc_init();     /* idempotent: a race only redoes the work */
    }
    crc = ~crc;
    while (len--) {
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    }
    return ~crc;
}
