/*
 * Emulated E810: RoCEv2 ICRC, a slicing-by-8 CRC-32.
 *
 * Eight 256-entry tables let the loop consume eight bytes per step; the
 * payload is the only per-byte work of the data path, so this is the
 * path that matters for throughput (issue 7: no other per-byte work).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_icrc.h"

#define CRC32_POLY_REFLECTED 0xedb88320u

#define IPV4_HLEN 20
#define IPV6_HLEN 40
#define UDP_HLEN 8
#define BTH_LEN 12

static uint32_t crc_tab[8][256];
static bool crc_tab_ready;

static void crc_tab_init(void)
{
    unsigned i, k;

    for (i = 0; i < 256; i++) {
        uint32_t c = i;

        for (k = 0; k < 8; k++) {
            c = (c >> 1) ^ ((c & 1) ? CRC32_POLY_REFLECTED : 0);
        }
        crc_tab[0][i] = c;
    }
    for (i = 0; i < 256; i++) {
        for (k = 1; k < 8; k++) {
            crc_tab[k][i] = (crc_tab[k - 1][i] >> 8) ^
                            crc_tab[0][crc_tab[k - 1][i] & 0xff];
        }
    }
    crc_tab_ready = true;
}

uint32_t e810_crc32_update(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    if (!crc_tab_ready) {
        crc_tab_init();     /* idempotent: a race only redoes the work */
    }
    while (len >= 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
                             (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);

        crc = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
              crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
              crc_tab[3][p[4]] ^ crc_tab[2][p[5]] ^
              crc_tab[1][p[6]] ^ crc_tab[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len--) {
        crc = (crc >> 8) ^ crc_tab[0][(crc ^ *p++) & 0xff];
    }
    return crc;
}

uint32_t e810_icrc(const uint8_t *l3, size_t len, bool ipv4)
{
    static const uint8_t lrh_ones[8] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
    };
    uint8_t hdr[IPV6_HLEN + UDP_HLEN + BTH_LEN];
    size_t iphl = ipv4 ? IPV4_HLEN : IPV6_HLEN;
    size_t hl = iphl + UDP_HLEN + BTH_LEN;
    uint32_t crc;

    if (len < hl) {
        return 0;
    }
    /* Masked copy of the variant fields; the packet itself is const. */
    memcpy(hdr, l3, hl);
    if (ipv4) {
        hdr[1] = 0xff;                      /* TOS */
        hdr[8] = 0xff;                      /* TTL */
        hdr[10] = hdr[11] = 0xff;           /* header checksum */
    } else {
        hdr[0] |= 0x0f;                     /* traffic class, flow label */
        hdr[1] = hdr[2] = hdr[3] = 0xff;
        hdr[7] = 0xff;                      /* hop limit */
    }
    hdr[iphl + 6] = hdr[iphl + 7] = 0xff;   /* UDP checksum */
    hdr[iphl + UDP_HLEN + 4] = 0xff;        /* BTH resv8a */

    crc = e810_crc32_update(0xffffffffu, lrh_ones, sizeof(lrh_ones));
    crc = e810_crc32_update(crc, hdr, hl);
    crc = e810_crc32_update(crc, l3 + hl, len - hl);
    return ~crc;
}
