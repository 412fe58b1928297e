/*
 * Emulated E810: MPA framing of offloaded iWARP connections (RFC 5044,
 * RFC 6581 for the v2 start-up the driver's CM already did).
 *
 * An FPDU is a 16-bit big-endian ULPDU length, the ULPDU (DDP header and
 * payload), 0-3 zero pad bytes to a multiple of 4, and the CRC32c of all
 * that, stored as the Linux crc32c digest writes it (little-endian; siw
 * and irdma's IEQ compare the wire bytes with it). irdma always asks for
 * CRCs and never for markers; RCVNOMPACRC says a peer sends none.
 *
 * The receiver is a stream parser: TCP hands it the bytes in order in any
 * cut (an FPDU over several segments, several FPDUs in one), it keeps at
 * most one FPDU (E810_IW_MAX_FPDU bytes) and hands each whole, checked
 * FPDU on. Transmit sizes every FPDU to fit one MSS.
 *
 * The CRC32c is the per-byte work of the engine, twice for every byte
 * between two ports (sent, received): e810_iw_crc32c() computes it with
 * the SSE4.2 CRC32 instruction where the host has it (x86-64, checked at
 * run time; the same reflected Castagnoli polynomial), else through the
 * embedder's e810_crc32c() (QEMU's crc32c(), a byte at a time).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_iw.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_CRC32C_SSE42 1

__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
    uint64_t c = (uint32_t)~crc;

    while (len && ((uintptr_t)p & 7)) {
        c = _mm_crc32_u8((uint32_t)c, *p++);
        len--;
    }
    while (len >= 8) {
        uint64_t v;

        memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
        p += 8;
        len -= 8;
    }
    while (len--) {
        c = _mm_crc32_u8((uint32_t)c, *p++);
    }
    return ~(uint32_t)c;
}
#endif

uint32_t e810_iw_crc32c(uint32_t crc, const void *buf, size_t len)
{
#ifdef HAVE_CRC32C_SSE42
    static int sse42 = -1;

    if (sse42 < 0) {
        sse42 = __builtin_cpu_supports("sse4.2");
    }
    if (sse42) {
        return crc32c_sse42(crc, buf, len);
    }
#endif
    return e810_crc32c(crc, buf, len);
}

uint32_t e810_iw_mulpdu(const E810IwConn *c, uint32_t hlen)
{
    /* Length field + header + payload a multiple of 4, then the CRC. */
    return ((c->o.mss - 4u) & ~3u) - 2u - hlen;
}

void e810_iw_mpa_tx(E810Core *core, E810IwConn *c, uint32_t ulen)
{
    uint8_t *f = core->iw->fpdu;
    uint32_t total = (2 + ulen + 3) & ~3u;
    uint32_t crc;

    f[0] = ulen >> 8;
    f[1] = (uint8_t)ulen;
    memset(f + 2 + ulen, 0, total - 2 - ulen);
    crc = e810_iw_crc32c(0, f, total);
    f[total] = (uint8_t)crc;
    f[total + 1] = crc >> 8;
    f[total + 2] = crc >> 16;
    f[total + 3] = crc >> 24;
    e810_iw_tx_append(c, f, total + 4);
    core->iw->stats.fpdus_tx++;
}

/* A whole FPDU is in rxbuf: check its CRC and hand its ULPDU on. */
static void fpdu_done(E810Core *core, E810IwConn *c)
{
    uint32_t ulen = c->rxbuf[0] << 8 | c->rxbuf[1];
    uint32_t n = c->rx_need;

    core->iw->stats.fpdus_rx++;
    if (!c->o.rcv_no_crc) {
        const uint8_t *t = c->rxbuf + n - 4;
        uint32_t want = e810_iw_crc32c(0, c->rxbuf, n - 4);
        uint32_t got = t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24;

        if (want != got) {
            core->iw->stats.crc_errors++;
            e810_iw_error(core, c, E810_AE_LLP_RECEIVED_MPA_CRC_ERROR,
                          c->rxbuf + 2, ulen);
            return;
        }
    }
    e810_iw_fpdu_rx(core, c, c->rxbuf + 2, ulen);
}

void e810_iw_mpa_rx(E810Core *core, E810IwConn *c, const uint8_t *data,
                    uint32_t len)
{
    while (len && !c->term_sent && !c->term_rcvd && !c->failed) {
        uint32_t k;

        if (c->rx_have < 2) {
            c->rxbuf[c->rx_have++] = *data++;
            len--;
            if (c->rx_have == 2) {
                uint32_t ulen = c->rxbuf[0] << 8 | c->rxbuf[1];

                c->rx_need = ((2 + ulen + 3) & ~3u) +
                             (c->o.rcv_no_crc ? 0 : 4);
            }
            continue;
        }
        k = c->rx_need - c->rx_have;
        if (k > len) {
            k = len;
        }
        memcpy(c->rxbuf + c->rx_have, data, k);
        c->rx_have += k;
        data += k;
        len -= k;
        if (c->rx_have == c->rx_need) {
            fpdu_done(core, c);
            c->rx_have = 0;
            c->rx_need = 0;
        }
    }
}
