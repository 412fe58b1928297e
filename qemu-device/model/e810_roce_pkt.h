/*
 * Emulated E810: RoCEv2 packet headers, built and parsed.
 *
 * A RoCEv2 frame is Ethernet (optionally 802.1Q tagged), IPv4 or IPv6,
 * UDP to port 4791, the InfiniBand BTH, the extension headers the BTH
 * opcode calls for (in this order: DETH, RETH, AETH, ImmDt or IETH), the
 * payload padded to four bytes, and the ICRC (e810_icrc.h). All header
 * fields are big-endian on the wire except the ICRC.
 *
 * The builder never copies payload: the caller asks where the payload
 * starts (e810_roce_hdr_len), gathers it straight into the frame, then
 * e810_roce_finish writes the headers, pad and ICRC around it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_ROCE_PKT_H
#define E810_ROCE_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define E810_ROCE_UDP_PORT      4791
#define E810_ETH_HLEN           14
#define E810_VLAN_HLEN          4
#define E810_IPV4_HLEN          20
#define E810_IPV6_HLEN          40
#define E810_UDP_HLEN           8
#define E810_BTH_LEN            12
#define E810_DETH_LEN           8
#define E810_RETH_LEN           16
#define E810_AETH_LEN           4
#define E810_IMM_LEN            4
#define E810_IETH_LEN           4
#define E810_ICRC_LEN           4
#define E810_GRH_LEN            40      /* what a UD receive buffer gets */
/* Largest header stack: VLAN + IPv6 + UDP + BTH + DETH + RETH + ImmDt. */
#define E810_ROCE_MAX_HDR       (E810_ETH_HLEN + E810_VLAN_HLEN + \
                                 E810_IPV6_HLEN + E810_UDP_HLEN + \
                                 E810_BTH_LEN + E810_DETH_LEN + \
                                 E810_RETH_LEN + E810_AETH_LEN + E810_IMM_LEN)
#define E810_ROCE_MAX_MTU       4096
#define E810_ROCE_MAX_FRAME     (E810_ROCE_MAX_HDR + E810_ROCE_MAX_MTU + \
                                 3 + E810_ICRC_LEN)

#define E810_BTH_QPN_MASK       0x00ffffffu
#define E810_BTH_PSN_MASK       0x00ffffffu
#define E810_MCAST_QPN          0x00ffffffu
#define E810_DETH_SQPN_MASK     0x00ffffffu

/* BTH opcodes: RC (transport 000) and UD (transport 011). */
enum {
    E810_BTH_RC_SEND_FIRST = 0x00,
    E810_BTH_RC_SEND_MIDDLE = 0x01,
    E810_BTH_RC_SEND_LAST = 0x02,
    E810_BTH_RC_SEND_LAST_IMM = 0x03,
    E810_BTH_RC_SEND_ONLY = 0x04,
    E810_BTH_RC_SEND_ONLY_IMM = 0x05,
    E810_BTH_RC_WRITE_FIRST = 0x06,
    E810_BTH_RC_WRITE_MIDDLE = 0x07,
    E810_BTH_RC_WRITE_LAST = 0x08,
    E810_BTH_RC_WRITE_LAST_IMM = 0x09,
    E810_BTH_RC_WRITE_ONLY = 0x0a,
    E810_BTH_RC_WRITE_ONLY_IMM = 0x0b,
    E810_BTH_RC_READ_REQ = 0x0c,
    E810_BTH_RC_READ_RESP_FIRST = 0x0d,
    E810_BTH_RC_READ_RESP_MIDDLE = 0x0e,
    E810_BTH_RC_READ_RESP_LAST = 0x0f,
    E810_BTH_RC_READ_RESP_ONLY = 0x10,
    E810_BTH_RC_ACK = 0x11,
    E810_BTH_RC_SEND_LAST_INV = 0x16,
    E810_BTH_RC_SEND_ONLY_INV = 0x17,
    E810_BTH_UD_SEND_ONLY = 0x64,
    E810_BTH_UD_SEND_ONLY_IMM = 0x65,
};

/* What an opcode carries (e810_roce_op_flags). */
enum {
    E810_OPF_VALID = 1u << 0,
    E810_OPF_DETH = 1u << 1,
    E810_OPF_RETH = 1u << 2,
    E810_OPF_AETH = 1u << 3,
    E810_OPF_IMM = 1u << 4,
    E810_OPF_IETH = 1u << 5,
    E810_OPF_PAYLOAD = 1u << 6,     /* may carry payload */
    E810_OPF_FIRST = 1u << 7,       /* starts a message */
    E810_OPF_LAST = 1u << 8,        /* ends a message */
    E810_OPF_SEND = 1u << 9,
    E810_OPF_WRITE = 1u << 10,
    E810_OPF_READ_RESP = 1u << 11,
};

/* AETH syndrome: [7:5] type (0 ACK, 1 RNR NAK, 3 NAK), [4:0] value. */
#define E810_AETH_ACK           0x00
#define E810_AETH_RNR           0x20
#define E810_AETH_NAK           0x60
#define E810_AETH_TYPE_MASK     0x60
#define E810_AETH_CREDIT_INVALID 0x1f   /* ACK: no end-to-end credits */
#define E810_NAK_PSN_SEQ        0x00
#define E810_NAK_INV_REQ        0x01
#define E810_NAK_REM_ACCESS     0x02
#define E810_NAK_REM_OP         0x03

/* One RoCEv2 packet's headers, host order. */
typedef struct E810RocePkt {
    uint8_t dmac[6];
    uint8_t smac[6];
    bool vlan;
    uint16_t tci;           /* priority << 13 | VLAN id */
    bool ipv4;
    uint8_t tclass;         /* IPv4 TOS / IPv6 traffic class */
    uint8_t hop_limit;      /* IPv4 TTL / IPv6 hop limit */
    uint32_t flow_label;
    uint32_t sip[4];        /* word 0 most significant; IPv4 in [3] */
    uint32_t dip[4];
    uint16_t sport;
    /* BTH */
    uint8_t opcode;
    bool se;
    bool mig;
    uint8_t pad;
    uint16_t pkey;
    bool becn;
    uint32_t dqpn;
    bool ackreq;
    uint32_t psn;
    /* extension headers, as the opcode says */
    uint32_t qkey;          /* DETH */
    uint32_t sqpn;
    uint64_t va;            /* RETH */
    uint32_t rkey;
    uint32_t dma_len;
    uint8_t syndrome;       /* AETH */
    uint32_t msn;
    uint32_t imm;           /* ImmDt, as the 32-bit big-endian value */
    uint32_t ieth;          /* IETH: rkey to invalidate */
    /* filled by the parser */
    const uint8_t *payload;
    uint32_t paylen;
    const uint8_t *l3;      /* IP header (for a UD receiver's GRH) */
} E810RocePkt;

/* Why a received frame was dropped (E810_ROCE_OK if it was not). */
typedef enum E810RoceErr {
    E810_ROCE_OK = 0,
    E810_ROCE_NOT_ROCE,     /* not IP/UDP to 4791: not for the engine */
    E810_ROCE_SHORT,        /* truncated headers */
    E810_ROCE_BAD_IP,       /* version, header length, total length, csum */
    E810_ROCE_BAD_UDP,      /* UDP length disagrees with IP */
    E810_ROCE_BAD_ICRC,
    E810_ROCE_BAD_VERSION,  /* BTH TVer not 0 */
    E810_ROCE_BAD_OPCODE,   /* opcode not supported */
    E810_ROCE_BAD_LEN,      /* pad or payload not allowed for the opcode */
    E810_ROCE_ERR_MAX,
} E810RoceErr;

/* E810_OPF_* of each opcode, 0 for one the engine does not speak. */
extern const uint16_t e810_roce_opf[256];

/* Inline: both ends of every packet ask it several times. */
static inline unsigned e810_roce_op_flags(uint8_t opcode)
{
    return e810_roce_opf[opcode];
}

/* Bytes of headers before the payload of @p (depends on L2/L3/opcode). */
size_t e810_roce_hdr_len(const E810RocePkt *p);

/*
 * Writes every header of @p into @frame, the pad after the @paylen bytes
 * of payload already at e810_roce_hdr_len(), and the ICRC (zero if
 * !@icrc: a frame that never leaves the device). Returns the frame length
 * (no FCS); the caller guarantees @frame has room (E810_ROCE_MAX_FRAME
 * for a payload up to E810_ROCE_MAX_MTU).
 */
size_t e810_roce_finish(E810RocePkt *p, uint8_t *frame, uint32_t paylen,
                        bool icrc);

/*
 * Parses and validates @frame. Payload pointers point into @frame. With
 * !@icrc the ICRC is not checked (loopback frames).
 */
E810RoceErr e810_roce_parse(const uint8_t *frame, size_t len, E810RocePkt *p,
                            bool icrc);

/*
 * A frame that carries its payload by reference (a loopback frame,
 * e810_xport_tx_mapped()): the first @hlen bytes (every header) are at
 * @hdr, which has room for E810_ROCE_MAX_HDR bytes at least; the
 * @paylen payload bytes are at @payload; the frame is @len bytes long.
 * Parsed as e810_roce_parse() without the ICRC check, which reads nothing
 * past the headers; E810_ROCE_BAD_LEN unless the payload is exactly
 * where and as long as the caller says.
 */
E810RoceErr e810_roce_parse_ref(const uint8_t *hdr, size_t hlen, size_t len,
                                const uint8_t *payload, uint32_t paylen,
                                E810RocePkt *p);

/* Cheap test for the Rx steering: IPv4/IPv6 + UDP to port 4791. */
bool e810_roce_is_rocev2(const uint8_t *frame, size_t len);

/* 24-bit PSN arithmetic: a - b as a signed distance. */
static inline int32_t e810_psn_diff(uint32_t a, uint32_t b)
{
    return (int32_t)((a - b) << 8) >> 8;
}

static inline uint32_t e810_psn_add(uint32_t a, uint32_t n)
{
    return (a + n) & E810_BTH_PSN_MASK;
}

#endif /* E810_ROCE_PKT_H */
