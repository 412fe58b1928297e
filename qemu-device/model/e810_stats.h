/*
 * Emulated E810: the port and VSI statistics registers ice reads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_STATS_H_MODEL
#define E810_STATS_H_MODEL

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "e810_regfile.h"

struct E810Core;

/* The absolute VSI numbers of the device (GLV_* arrays, _i=0...767). */
#define E810_STATS_NUM_VSI      768
/* Frame size buckets: 64, 65-127, 128-255, 256-511, 512-1023, 1024-1522,
 * and everything larger (PRC9522/PTC9522). */
#define E810_STATS_NUM_SIZES    7

/*
 * The port's MAC counters (GLPRT_*, PRTRPB_RDPC). Kept as 64-bit event
 * counts; the registers show them modulo 2^40 or 2^32 as the hardware's
 * counters wrap.
 */
typedef struct E810PortCounters {
    uint64_t gorc, uprc, mprc, bprc;    /* good Rx octets / packets */
    uint64_t gotc, uptc, mptc, bptc;    /* good Tx octets / packets */
    uint64_t prc[E810_STATS_NUM_SIZES];
    uint64_t ptc[E810_STATS_NUM_SIZES];
    uint64_t ruc, roc;                  /* Rx undersize / oversize */
    uint64_t rdpc;                      /* Rx dropped: no buffer */
    uint64_t tdold;                     /* Tx dropped: link down */
} E810PortCounters;

/* One VSI's counters (GLV_*). */
typedef struct E810VsiCounters {
    uint64_t gorc, uprc, mprc, bprc, rdpc;
    uint64_t gotc, uptc, mptc, bptc, tepc;
} E810VsiCounters;

typedef struct E810Stats {
    E810PortCounters port;
    E810VsiCounters vsi[E810_STATS_NUM_VSI];
} E810Stats;

/* Cleared by CORER, GLOBR and power-on; a PF reset keeps them. */
void e810_stats_reset(struct E810Core *core, E810ResetSource level);

/*
 * MMIO: true when @addr is a statistics register read with a size the
 * hardware allows (4 bytes; 8 bytes at the low half of a 40-bit counter),
 * *@val then holds the value.
 */
bool e810_stats_mmio_read(struct E810Core *core, uint64_t addr,
                          unsigned size, uint64_t *val);
/* True when @addr (4-byte aligned) is a statistics register. */
bool e810_stats_is_reg(uint64_t addr);

/*
 * Events. The MAC sees a frame from the wire: false when it drops it
 * (shorter than an Ethernet header: undersize; longer than the maximum
 * frame size: oversize), counted either way once e810_stats_rx_port()
 * or this call has run.
 */
bool e810_stats_rx_mac_ok(struct E810Core *core, size_t len);
/* A good frame the port took (LAN or RoCE). */
void e810_stats_rx_port(struct E810Core *core, const uint8_t *frame,
                        size_t len);
/* A frame delivered to VSI @vsi's queue, or dropped there for lack of
 * buffers (the port's RDPC counts that too). */
void e810_stats_rx_vsi(struct E810Core *core, uint16_t vsi,
                       const uint8_t *frame, size_t len);
void e810_stats_rx_drop(struct E810Core *core, uint16_t vsi);
/* A frame put on the wire; @vsi its source, or -1 (the protocol engine). */
void e810_stats_tx(struct E810Core *core, int vsi, const uint8_t *frame,
                   size_t len);
/* A packet VSI @vsi queued that the device dropped as malformed. */
void e810_stats_tx_error(struct E810Core *core, uint16_t vsi);
/* A frame not sent because the link was down. */
void e810_stats_tx_link_down(struct E810Core *core);

#endif /* E810_STATS_H_MODEL */
