/*
 * Emulated E810: iWARP mode of the protocol engine (private to the model).
 *
 * The mode comes from the CQP host context (PROTOCOL_USED, e810_cqp.c);
 * in iWARP mode the engine keeps two connection tables the driver loads
 * through the CQP (docs/hw-model.md, "iWARP mode"):
 *  - the APBVT, the set of local TCP ports owned by the engine rather
 *    than the host stack (MANAGE_APBVT, upstream irdma_add_apbvt());
 *  - the quad hash table (MANAGE_QUAD_HASH_TABLE_ENTRY): listen entries
 *    (local IP and port) and connection entries (4-tuple), each naming
 *    the QP its segments go to: the ILQ (QP 1) until the connection is
 *    offloaded (upstream irdma_manage_qhash()).
 * Rx steering (e810_iw_steer()) uses both to decide which TCP segments
 * leave the LAN path. The ILQ itself is in e810_ilq.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_IWARP_H
#define E810_IWARP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct E810Core;
struct E810Qp;

/* QHASH ENTRYTYPE (upstream enum irdma_quad_entry_type); the UDP/RoCE
 * types 3..6 are not used by irdma on E810 and refused here. */
enum {
    E810_QHASH_TYPE_TCP_ESTABLISHED = 1,
    E810_QHASH_TYPE_TCP_SYN = 2,
};

/* QHASH MANAGE (upstream enum irdma_quad_hash_manage_type). */
enum {
    E810_QHASH_MANAGE_DELETE = 0,
    E810_QHASH_MANAGE_ADD = 1,
    E810_QHASH_MANAGE_MODIFY = 2,
};

/* Entries the model's quad hash holds (a listener per local address, a
 * connection entry per connection being set up or offloaded). */
#define E810_QHASH_MAX          1024
#define E810_APBVT_PORTS        65536

/* The ILQ and IEQ (upstream IRDMA_PUDA_*: QP and CQ ids 1 and 2). */
#define E810_ILQ_QPN            1
#define E810_IEQ_QPN            2

typedef struct E810Qhash {
    bool valid;
    bool ipv4;
    bool vlan_valid;
    uint8_t type;           /* E810_QHASH_TYPE_* */
    uint8_t mac[6];
    uint16_t vlan;
    uint16_t lport;         /* DEST_PORT: the local port */
    uint16_t rport;         /* SRC_PORT: the remote one (ESTABLISHED) */
    uint16_t qs_handle;
    uint32_t qpn;
    uint32_t lip[4];        /* word 0 most significant; IPv4 in [3] */
    uint32_t rip[4];        /* ESTABLISHED only */
} E810Qhash;

typedef struct E810IwStats {
    uint64_t apbvt_adds;
    uint64_t apbvt_dels;
    uint64_t apbvt_dup_adds;    /* port already set: a no-op */
    uint64_t apbvt_missing_dels; /* port not set: a no-op */
    uint64_t qhash_adds;
    uint64_t qhash_dels;
    uint64_t qhash_mods;
    uint64_t qhash_refused;     /* ops failed with a CQP error */
    uint64_t rx_to_ilq;         /* segments steered to the ILQ */
    uint64_t rx_to_engine;      /* segments of offloaded connections */
    uint64_t rx_engine_drops;   /* ... of which no connection took */
    uint64_t ilq_rx;            /* of which received into an RQ buffer */
    uint64_t ilq_rx_data;       /* of those, with TCP payload (MPA frames) */
    uint64_t ilq_rx_dropped;    /* no RQ WQE, short buffer, no CQ */
    uint64_t ilq_tx;            /* ILQ SQ WQEs sent */
    uint64_t ilq_tx_loopback;   /* of which looped back to our port */
    uint64_t ilq_tx_errors;     /* bad AH, ARP entry or buffer */
} E810IwStats;

typedef struct E810Iwarp {
    uint64_t apbvt[E810_APBVT_PORTS / 64];
    uint32_t apbvt_count;
    uint32_t qhash_count;
    E810Qhash qhash[E810_QHASH_MAX];
    E810IwStats stats;
} E810Iwarp;

/* The engine runs iWARP (the CQP context said PROTOCOL_USED 1). */
bool e810_iw_mode(struct E810Core *core);

/* True if local TCP port @port is in the APBVT. */
bool e810_apbvt_has(struct E810Core *core, uint16_t port);

/*
 * The quad hash entry a TCP segment matches, or NULL: the connection entry
 * of its 4-tuple first, else the listen entry of its local IP and port
 * (and VLAN, when the entry has one). Addresses as in E810Qhash.
 */
const E810Qhash *e810_qhash_lookup(struct E810Core *core, bool ipv4,
                                   const uint32_t lip[4], uint16_t lport,
                                   const uint32_t rip[4], uint16_t rport,
                                   bool vlan_valid, uint16_t vlan);

/* TCP flags (byte 13 of the header). */
#define E810_TCP_FIN            0x01
#define E810_TCP_SYN            0x02
#define E810_TCP_RST            0x04
#define E810_TCP_ACK            0x10

/* A TCP segment in a frame, as seen by the receiving port. */
typedef struct E810IwSeg {
    bool ipv4;
    bool vlan_valid;
    uint16_t tci;
    uint8_t flags;          /* TCP flags */
    uint16_t lport;         /* destination port: ours */
    uint16_t rport;
    uint32_t lip[4];        /* destination IP, as in E810Qhash */
    uint32_t rip[4];
    size_t l3_off;          /* IP header */
    size_t l4_off;          /* TCP header */
    uint32_t l4_len;        /* TCP header and payload */
} E810IwSeg;

/*
 * Parses an Ethernet (optionally 802.1Q) frame carrying TCP over IPv4
 * (no options, not fragmented) or IPv6 (no extension headers); false if
 * it is anything else or truncated.
 */
bool e810_iw_parse(const uint8_t *frame, size_t len, E810IwSeg *s);

/*
 * True if destination MAC @mac is the function's or a local MAC table
 * entry's (the steering's test, also the ILQ's loopback test of both
 * generations).
 */
bool e810_iw_mac_is_ours(struct E810Core *core, const uint8_t *mac);

/* What the engine does with a frame from the wire (or looped back). */
typedef enum E810IwRx {
    E810_IW_RX_LAN = 0,     /* not ours: the LAN queues, as in RoCE mode */
    E810_IW_RX_ILQ,         /* to the ILQ (connection manager) */
    E810_IW_RX_ENGINE,      /* an offloaded connection's */
} E810IwRx;

/*
 * Rx steering in iWARP mode: TCP over IPv4/IPv6 to our MAC and one of
 * the APBVT's ports; a segment of an offloaded connection goes to its QP,
 * a SYN or a segment matching a quad hash entry to the ILQ, the rest to
 * the LAN. Anything in RoCE mode: E810_IW_RX_LAN.
 */
E810IwRx e810_iw_steer(struct E810Core *core, const uint8_t *frame,
                       size_t len);
/* Takes a frame e810_iw_steer() did not send to the LAN. */
void e810_iw_receive(struct E810Core *core, E810IwRx where,
                     const uint8_t *frame, size_t len);

/*
 * MODIFY_QP with TOECTXVALID of iWARP QP @qp loaded the TOE context in
 * @ctx (host order): keep its 4-tuple for e810_iw_qp_remove_hash().
 */
void e810_iw_qp_toe_loaded(struct E810Qp *qp, const uint64_t *ctx);

/*
 * MODIFY_QP or DESTROY_QP with REMOVEHASHENTRY of iWARP QP @qp (host
 * context at @ctx_pa): the connection entry of its 4-tuple goes, and any
 * entry steering to the QP (upstream irdma_next_iw_state() with
 * del_hash, irdma_cqp_qp_destroy_cmd()). The 4-tuple is the one of the
 * TOE context the device loaded, else (never loaded) the one the host
 * context names.
 */
void e810_iw_qp_remove_hash(struct E810Core *core, const struct E810Qp *qp,
                            uint32_t qp_id, uint64_t ctx_pa);

/* "name=value ..." counts and the tables' entries (QMP x-iwarp-tables). */
int e810_iw_format_tables(struct E810Core *core, char *buf, size_t len);

/* ---- e810_ilq.c: the ILQ data path -------------------------------------- */

struct E810SendWqe;
/* An ILQ SQ WQE: a driver-built TCP segment to send; true if taken. */
bool e810_ilq_send(struct E810Core *core, struct E810Qp *qp,
                   const struct E810SendWqe *wqe);
/* A frame for the ILQ: into its next RQ buffer, with its CQE. */
void e810_ilq_receive(struct E810Core *core, const uint8_t *frame,
                      size_t len);

/*
 * x722_ilq.c: the ILQ/IEQ data path of a GEN_1 engine (the X722's), which
 * e810_ilq_send() and e810_ilq_receive() hand over to: whole Ethernet
 * frames in the buffers, no address handles.
 */
bool e810_ilq_send_gen1(struct E810Core *core, struct E810Qp *qp,
                        const struct E810SendWqe *wqe);
void e810_ilq_receive_gen1(struct E810Core *core, const uint8_t *frame,
                           size_t len);

#endif /* E810_IWARP_H */
