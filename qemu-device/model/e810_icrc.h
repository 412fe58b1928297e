/*
 * Emulated E810: RoCEv2 invariant CRC (ICRC).
 *
 * The ICRC is the IEEE CRC-32 (reflected polynomial 0xEDB88320, initial
 * value and final XOR all ones, the function zlib calls crc32) over:
 * 8 bytes of 0xFF standing in for the InfiniBand LRH, the IP header with
 * the fields routers may change set to all ones (IPv4: TOS, TTL, header
 * checksum; IPv6: traffic class, flow label, hop limit), the UDP header
 * with its checksum set to all ones, the BTH with its resv8a byte set to
 * all ones, then the rest of the packet up to the ICRC. It is carried in
 * the last four bytes of the packet, least significant byte first.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_ICRC_H
#define E810_ICRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * CRC-32 with zlib's crc32() conventions (@crc 0 to start, the value
 * returned final, so a CRC continues over several calls): zlib's own
 * crc32_z() unless the embedder installed another (E810CoreOps.crc32,
 * which e810_core_init() passes to e810_crc32_set_impl(); NULL: zlib's).
 * The ICRC code has no E810Core at hand, so the choice is process-wide:
 * every device of a process has the same ops.
 */
typedef uint32_t E810Crc32Fn(uint32_t crc, const void *buf, size_t len);
uint32_t e810_crc32(uint32_t crc, const void *buf, size_t len);
void e810_crc32_set_impl(E810Crc32Fn *fn);

/*
 * The hand-written CRC-32 with e810_crc32()'s conventions, for
 * E810CoreOps.crc32: carry-less multiply folding in the fastest form the
 * host runs (checked at run time), a slicing-by-8 table for short tails
 * and where there is none. The measurement that keeps it: e810_icrc.c.
 */
uint32_t e810_crc32_clmul(uint32_t crc, const void *buf, size_t len);

/*
 * Raw register updates of that CRC (no pre/post inversion), for tests:
 * the table alone, and the form @impl or the best one below it.
 */
uint32_t e810_crc32_update_table(uint32_t crc, const void *buf, size_t len);
/*
 * The forms there are, slowest first: the table, 128-bit carry-less
 * multiplies (PCLMULQDQ), 512-bit ones (AVX-512 VPCLMULQDQ). _best() is
 * the fastest this host runs; _update_with() uses @impl or the best one
 * below it (a test compares each with the table).
 */
enum {
    E810_CRC_TABLE,
    E810_CRC_CLMUL,
    E810_CRC_VCLMUL,
};
unsigned e810_crc32_best(void);
uint32_t e810_crc32_update_with(unsigned impl, uint32_t crc, const void *buf,
                                size_t len);

/*
 * ICRC of a RoCEv2 packet. @l3 points at the IP header, @len covers the
 * IP header up to (not including) the ICRC; @ipv4 says which IP header
 * it is. The packet is not modified. Returns the CRC value; the wire
 * carries it little-endian. @len must cover IP + UDP + BTH.
 */
uint32_t e810_icrc(const uint8_t *l3, size_t len, bool ipv4);

#endif /* E810_ICRC_H */
