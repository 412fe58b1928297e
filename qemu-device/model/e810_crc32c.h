/*
 * Emulated E810: CRC32c (Castagnoli, reflected polynomial 0x82F63B78),
 * the CRC of iWARP's MPA FPDUs (RFC 5044) and SCTP's checksum (RFC 4960,
 * appendix B). zlib's crc32() conventions: @crc 0 to start, the value
 * returned final (inverted on entry and on exit), so a CRC continues
 * over several calls.
 *
 * The model does not implement it: the embedder links it in. QEMU's glue
 * (qemu/e810_pci.c) wraps QEMU's crc32c() (util/crc32c.c); the host
 * builds of the model (tests/unit, tests/fuzz, tests/bench) link
 * tests/unit/host_crc32c.c, which tests/unit/test_crc.c checks against
 * the vectors of RFC 3720.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_CRC32C_H
#define E810_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t e810_crc32c(uint32_t crc, const void *buf, size_t len);

#endif /* E810_CRC32C_H */
