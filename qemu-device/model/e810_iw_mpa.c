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
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_iw.h"

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
    crc = e810_crc32c(0, f, total);
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
        uint32_t want = e810_crc32c(0, c->rxbuf, n - 4);
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
