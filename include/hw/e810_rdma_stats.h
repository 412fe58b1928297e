/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Intel E810 (irdma GEN_2) protocol-engine statistics: the counters a
 * statistics instance holds and where GATHER_STATS puts each of them in
 * the E810_GATHER_STATS_BUF_SIZE byte buffer (include/hw/e810_cqp.h).
 *
 * The buffer is an array of little-endian qwords. A counter sits in the
 * qword at byte offset OFF, shifted left by SHIFT, BITS wide; two narrow
 * counters may share a qword. Counters run free and wrap at 2^BITS: a
 * reader computes deltas modulo that width (irdma_update_stats() and the
 * GEN_2 map icrdma_hw_stat_map[]).
 *
 * E810_RSTAT_LIST(X) expands X(NAME, OFF, SHIFT, BITS) once per counter,
 * in the order of the driver's IRDMA_HW_STAT_INDEX_* numbering, which
 * enum e810_rstat below reproduces.
 */
#ifndef E810_RDMA_STATS_H
#define E810_RDMA_STATS_H

#define E810_RSTAT_LIST(X)				\
	X(IP4RXDISCARD,		 24, 32, 32)		\
	X(IP4RXTRUNC,		 24,  0, 32)		\
	X(IP4TXNOROUTE,		184, 32, 24)		\
	X(IP6RXDISCARD,		 72, 32, 32)		\
	X(IP6RXTRUNC,		 72,  0, 32)		\
	X(IP6TXNOROUTE,		184,  0, 24)		\
	X(TCPRTXSEG,		216, 32, 32)		\
	X(TCPRXOPTERR,		200, 32, 24)		\
	X(TCPRXPROTOERR,	200,  0, 24)		\
	X(RXVLANERR,		  0, 32, 24)		\
	X(IP4RXOCTS,		  8,  0, 48)		\
	X(IP4RXPKTS,		 16,  0, 48)		\
	X(IP4RXFRAGS,		 32,  0, 48)		\
	X(IP4RXMCPKTS,		 48,  0, 48)		\
	X(IP4TXOCTS,		104,  0, 48)		\
	X(IP4TXPKTS,		112,  0, 48)		\
	X(IP4TXFRAGS,		120,  0, 48)		\
	X(IP4TXMCPKTS,		136,  0, 48)		\
	X(IP6RXOCTS,		 56,  0, 48)		\
	X(IP6RXPKTS,		 64,  0, 48)		\
	X(IP6RXFRAGS,		 80,  0, 48)		\
	X(IP6RXMCPKTS,		 96,  0, 48)		\
	X(IP6TXOCTS,		144,  0, 48)		\
	X(IP6TXPKTS,		152,  0, 48)		\
	X(IP6TXFRAGS,		160,  0, 48)		\
	X(IP6TXMCPKTS,		176,  0, 48)		\
	X(TCPRXSEGS,		192, 32, 48)		\
	X(TCPTXSEG,		208,  0, 48)		\
	X(RDMARXRDS,		248,  0, 48)		\
	X(RDMARXSNDS,		256,  0, 48)		\
	X(RDMARXWRS,		240,  0, 48)		\
	X(RDMATXRDS,		272,  0, 48)		\
	X(RDMATXSNDS,		280,  0, 48)		\
	X(RDMATXWRS,		264,  0, 48)		\
	X(RDMAVBND,		288,  0, 48)		\
	X(RDMAVINV,		296,  0, 48)		\
	X(IP4RXMCOCTS,		 40,  0, 48)		\
	X(IP4TXMCOCTS,		128,  0, 48)		\
	X(IP6RXMCOCTS,		 88,  0, 48)		\
	X(IP6TXMCOCTS,		168,  0, 48)		\
	X(UDPRXPKTS,		224,  0, 48)		\
	X(UDPTXPKTS,		232,  0, 48)		\
	X(RXNPECNMARKEDPKTS,	304,  0, 56)		\
	X(RXRPCNPHANDLED,	312,  0, 32)		\
	X(RXRPCNPIGNORED,	312, 32, 24)		\
	X(TXNPCNPSENT,		320,  0, 32)

#define E810_RSTAT_ENUM_(name, off, shift, bits) E810_RSTAT_##name,
enum e810_rstat {
	E810_RSTAT_LIST(E810_RSTAT_ENUM_)
	E810_RSTAT_MAX		/* 46: IRDMA_HW_STAT_INDEX_MAX_GEN_2 */
};
#undef E810_RSTAT_ENUM_

/* Bytes of the gather buffer the counters occupy; the rest reads 0. */
#define E810_RSTAT_LAYOUT_BYTES		328

#endif /* E810_RDMA_STATS_H */
