/*
 * Emulated E810: LAN offloads. Tx checksum insertion and TCP/UDP
 * segmentation as requested by the data descriptor (IIPT, L4T, MACLEN,
 * IPLEN, L4LEN; ice_tx_csum()) and the TSO context descriptor (MSS, TSO
 * length; ice_tso()); on Rx the packet type, the checksum status bits
 * (L3L4P, IPE, L4E) that ice_rx_csum() reads.
 *
 * The L4 checksum is computed the way the hardware does it: a ones'
 * complement sum from the L4 header to the end of the packet, starting
 * from what the driver left in the checksum field. The stack leaves the
 * pseudo-header sum there; for TSO ice_tso() takes the payload length out
 * of it and the device adds each segment's own L4 length back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_core.h"
#include "e810_crc32c.h"

#define ETH_HLEN            14
#define FCS_LEN             4
#define ETH_P_IP            0x0800
#define ETH_P_ARP           0x0806
#define ETH_P_IPV6          0x86dd
#define ETH_P_8021Q         0x8100
#define ETH_P_8021AD        0x88a8
#define IPPROTO_ICMP_       1
#define IPPROTO_TCP_        6
#define IPPROTO_UDP_        17
#define IPPROTO_ICMPV6_     58
#define IPPROTO_SCTP_       132
#define IPV4_HLEN_MIN       20
#define IPV6_HLEN           40u
#define TCP_HLEN_MIN        20
#define UDP_HLEN            8
#define SCTP_HLEN           12
#define TCP_FIN             0x01
#define TCP_PSH             0x08
#define TCP_CWR             0x80

/* ---- byte and checksum helpers ------------------------------------------- */

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, (uint16_t)v);
}

/* Ones' complement sum of @n bytes as big-endian 16-bit words. */
static uint64_t csum_add(uint64_t sum, const uint8_t *p, size_t n)
{
    size_t i;

    for (i = 0; i + 1 < n; i += 2) {
        sum += get16(p + i);
    }
    if (n & 1) {
        sum += (uint32_t)p[n - 1] << 8;
    }
    return sum;
}

static uint16_t csum_fold(uint64_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}

/* The SCTP checksum of @n >= 12 bytes at @l4, its own field read as 0. */
static uint32_t sctp_csum(const uint8_t *l4, size_t n)
{
    static const uint8_t zero[4];
    uint32_t crc = e810_crc32c(0, l4, 8);

    crc = e810_crc32c(crc, zero, sizeof(zero));
    return e810_crc32c(crc, l4 + SCTP_HLEN, n - SCTP_HLEN);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- Tx ------------------------------------------------------------------ */

/* Where the headers are, from the data descriptor's OFFSET and CMD. */
typedef struct TxHdrs {
    size_t l3, l4, hlen;    /* offsets of L3, L4 and of the payload */
    uint32_t iipt, l4t;
} TxHdrs;

/*
 * Validates the offload request of a @len-byte packet: the lengths must
 * describe headers of the announced types that lie inside the packet.
 */
static bool tx_hdrs(uint32_t cmd, uint32_t off, size_t len, TxHdrs *h)
{
    size_t iplen = FIELD_GET(E810_TXD_OFF_IPLEN, off) * 4;
    size_t l4len = FIELD_GET(E810_TXD_OFF_L4LEN, off) * 4;

    h->iipt = cmd & E810_TX_DESC_CMD_IIPT;
    h->l4t = cmd & E810_TX_DESC_CMD_L4T;
    h->l3 = FIELD_GET(E810_TXD_OFF_MACLEN, off) * 2;
    h->l4 = h->l3 + iplen;
    h->hlen = h->l4 + l4len;
    if (!h->iipt) {
        return !h->l4t;     /* an L4 type without an IP type is nonsense */
    }
    if (h->l3 < ETH_HLEN ||
        iplen < (h->iipt == E810_TX_DESC_CMD_IIPT_IPV6 ? IPV6_HLEN :
                 IPV4_HLEN_MIN)) {
        return false;
    }
    switch (h->l4t) {
    case E810_TX_DESC_CMD_L4T_TCP:
        if (l4len < TCP_HLEN_MIN) {
            return false;
        }
        break;
    case E810_TX_DESC_CMD_L4T_UDP:
        if (l4len != UDP_HLEN) {
            return false;
        }
        break;
    case E810_TX_DESC_CMD_L4T_SCTP:
        if (l4len != SCTP_HLEN) {
            return false;
        }
        break;
    default:
        break;
    }
    return h->hlen <= len;
}

static void ipv4_fill_csum(uint8_t *ip, size_t iplen)
{
    put16(ip + 10, 0);
    put16(ip + 10, (uint16_t)~csum_fold(csum_add(0, ip, iplen)));
}

/*
 * The L4 checksum of @f (@len bytes) per @h; @seg_len is added to the
 * driver's seed when it left the length out (TSO), 0 otherwise.
 */
static void l4_fill_csum(uint8_t *f, size_t len, const TxHdrs *h,
                         size_t seg_len)
{
    uint8_t *l4 = f + h->l4;
    uint16_t c;

    switch (h->l4t) {
    case E810_TX_DESC_CMD_L4T_TCP:
        c = ~csum_fold(csum_add(seg_len, l4, len - h->l4));
        put16(l4 + 16, c);
        break;
    case E810_TX_DESC_CMD_L4T_UDP:
        c = ~csum_fold(csum_add(seg_len, l4, len - h->l4));
        put16(l4 + 6, c ? c : 0xffff);
        break;
    case E810_TX_DESC_CMD_L4T_SCTP:
        put_le32(l4 + 8, sctp_csum(l4, len - h->l4));
        break;
    default:
        break;
    }
}

bool e810_lan_tx_csum(uint8_t *f, size_t len, uint32_t cmd, uint32_t off)
{
    TxHdrs h;

    if (!tx_hdrs(cmd, off, len, &h)) {
        return false;
    }
    if (h.iipt == E810_TX_DESC_CMD_IIPT_IPV4_CSUM) {
        ipv4_fill_csum(f + h.l3, h.l4 - h.l3);
    }
    l4_fill_csum(f, len, &h, 0);
    return true;
}

/*
 * Data descriptors (buffers ending at @bend) that a segment made of the
 * headers [0, hlen) and the payload [from, to) takes bytes from; a buffer
 * holding both counts once.
 */
static unsigned seg_bufs(const uint32_t *bend, unsigned nb, size_t hlen,
                         size_t from, size_t to)
{
    unsigned k, n = 0;
    size_t start = 0;

    for (k = 0; k < nb; k++) {
        if (bend[k] > start &&
            (start < hlen || (start < to && bend[k] > from))) {
            n++;
        }
        start = bend[k];
    }
    return n;
}

void e810_lan_tx_emit(E810Core *core, uint8_t *f, size_t len, bool tag,
                      uint16_t tci)
{
    if (tag) {
        /* IL2TAG1: the device inserts the 802.1Q tag after the MACs. */
        memmove(f + 16, f + 12, len - 12);
        put16(f + 12, ETH_P_8021Q);
        put16(f + 14, tci);
        len += 4;
    }
    core->ops->transmit(core->opaque, f, len);
    e810_stats_tx(core, core->lan.tx_vsi, f, len);
    core->lan.stats.tx_packets++;
    core->lan.stats.tx_bytes += len;
}

int e810_lan_tso(E810Core *core, const uint8_t *pkt, size_t len,
                 uint64_t qw1, uint64_t ctx_qw1, const uint32_t *bend,
                 unsigned nb)
{
    uint32_t cmd = FIELD_GET(E810_TXD_CMD, qw1);
    uint32_t off = FIELD_GET(E810_TXD_OFFSET, qw1);
    bool tag = cmd & E810_TX_DESC_CMD_IL2TAG1;
    uint16_t tci = FIELD_GET(E810_TXD_L2TAG1, qw1);
    uint32_t mss = FIELD_GET(E810_TXD_CTX_MSS, ctx_qw1);
    size_t tso_len = FIELD_GET(E810_TXD_CTX_TSO_LEN, ctx_qw1);
    uint8_t *seg = core->lan.seg;
    unsigned nseg, i;
    uint32_t seq = 0;
    uint16_t ipid = 0;
    TxHdrs h;

    if (!tx_hdrs(cmd, off, len, &h) ||
        (h.l4t != E810_TX_DESC_CMD_L4T_TCP &&
         h.l4t != E810_TX_DESC_CMD_L4T_UDP)) {
        return -1;
    }
    if (mss < E810_TSO_MSS_MIN || mss > E810_TSO_MSS_MAX || tso_len == 0 ||
        h.hlen + tso_len != len ||
        h.hlen + mss + (tag ? 4 : 0) + FCS_LEN > core->aq.max_frame ||
        h.hlen + mss + 4 > sizeof(core->lan.seg)) {
        return -1;
    }
    nseg = (tso_len + mss - 1) / mss;
    /* Each segment (its headers and its payload) may use 8 buffers. */
    for (i = 0; i < nseg; i++) {
        size_t from = h.hlen + (size_t)i * mss;
        size_t to = from + mss < len ? from + mss : len;

        if (seg_bufs(bend, nb, h.hlen, from, to) > E810_TX_MAX_DESC_PER_PKT) {
            return -1;
        }
    }
    if (h.iipt != E810_TX_DESC_CMD_IIPT_IPV6) {
        ipid = get16(pkt + h.l3 + 4);
    }
    if (h.l4t == E810_TX_DESC_CMD_L4T_TCP) {
        seq = get32(pkt + h.l4 + 4);
    }
    for (i = 0; i < nseg; i++) {
        size_t from = h.hlen + (size_t)i * mss;
        size_t n = len - from < mss ? len - from : mss;
        size_t seg_len = h.hlen + n;
        uint8_t *ip = seg + h.l3, *l4 = seg + h.l4;

        memcpy(seg, pkt, h.hlen);
        memcpy(seg + h.hlen, pkt + from, n);
        if (h.iipt == E810_TX_DESC_CMD_IIPT_IPV6) {
            put16(ip + 4, (uint16_t)(seg_len - h.l3 - IPV6_HLEN));
        } else {
            put16(ip + 2, (uint16_t)(seg_len - h.l3));
            put16(ip + 4, (uint16_t)(ipid + i));
            if (h.iipt == E810_TX_DESC_CMD_IIPT_IPV4_CSUM) {
                ipv4_fill_csum(ip, h.l4 - h.l3);
            }
        }
        if (h.l4t == E810_TX_DESC_CMD_L4T_TCP) {
            /* FIN and PSH on the last segment only, CWR on the first. */
            put32(l4 + 4, seq + i * mss);
            if (i != nseg - 1) {
                l4[13] &= ~(TCP_FIN | TCP_PSH);
            }
            if (i != 0) {
                l4[13] &= ~TCP_CWR;
            }
        } else {
            put16(l4 + 4, (uint16_t)(seg_len - h.l4));
        }
        l4_fill_csum(seg, seg_len, &h, seg_len - h.l4);
        e810_lan_tx_emit(core, seg, seg_len, tag, tci);
    }
    return nseg;
}

/* ---- Rx ------------------------------------------------------------------ */

/* Verifies a TCP/UDP/SCTP checksum; @pseudo: the pseudo-header sum. */
static bool l4_csum_ok(uint8_t proto, const uint8_t *l4, size_t n,
                       uint64_t pseudo, bool ipv6)
{
    switch (proto) {
    case IPPROTO_TCP_:
        return n >= TCP_HLEN_MIN &&
               csum_fold(csum_add(pseudo, l4, n)) == 0xffff;
    case IPPROTO_UDP_:
        if (n < UDP_HLEN || get16(l4 + 4) != n) {
            return false;
        }
        if (get16(l4 + 6) == 0) {
            return !ipv6;   /* "no checksum" exists for IPv4 only */
        }
        return csum_fold(csum_add(pseudo, l4, n)) == 0xffff;
    default:    /* SCTP */
        return n >= SCTP_HLEN &&
               sctp_csum(l4, n) == get_le32(l4 + 8);
    }
}

/* Packet type of an L4 protocol over IPv4 (@v6 false) or IPv6. */
static uint16_t l4_ptype(uint8_t proto, bool v6)
{
    switch (proto) {
    case IPPROTO_TCP_:
        return v6 ? E810_PTYPE_IPV6_TCP : E810_PTYPE_IPV4_TCP;
    case IPPROTO_UDP_:
        return v6 ? E810_PTYPE_IPV6_UDP : E810_PTYPE_IPV4_UDP;
    case IPPROTO_SCTP_:
        return v6 ? E810_PTYPE_IPV6_SCTP : E810_PTYPE_IPV4_SCTP;
    case IPPROTO_ICMP_:
        return v6 ? E810_PTYPE_IPV6_PAY : E810_PTYPE_IPV4_ICMP;
    case IPPROTO_ICMPV6_:
        return v6 ? E810_PTYPE_IPV6_ICMP : E810_PTYPE_IPV4_PAY;
    default:
        return v6 ? E810_PTYPE_IPV6_PAY : E810_PTYPE_IPV4_PAY;
    }
}

static bool l4_checked(uint8_t proto)
{
    return proto == IPPROTO_TCP_ || proto == IPPROTO_UDP_ ||
           proto == IPPROTO_SCTP_;
}

static uint16_t rx_ipv4(const uint8_t *ip, size_t room, uint16_t *status)
{
    size_t ihl, tot;
    uint64_t pseudo;
    uint8_t proto;

    if (room < IPV4_HLEN_MIN || (ip[0] >> 4) != 4) {
        return E810_PTYPE_MAC_PAY2;
    }
    ihl = (size_t)(ip[0] & 0xf) * 4;
    tot = get16(ip + 2);
    if (ihl < IPV4_HLEN_MIN || tot < ihl || tot > room) {
        return E810_PTYPE_MAC_PAY2;     /* not an IPv4 packet it can parse */
    }
    *status |= E810_RX_FLEX_STATUS0_L3L4P;
    if (csum_fold(csum_add(0, ip, ihl)) != 0xffff) {
        *status |= E810_RX_FLEX_STATUS0_IPE;
    }
    if (get16(ip + 6) & 0x3fff) {       /* MF or a fragment offset */
        return E810_PTYPE_IPV4_FRAG;
    }
    proto = ip[9];
    if (l4_checked(proto)) {
        pseudo = csum_add(0, ip + 12, 8) + proto + (tot - ihl);
        if (!l4_csum_ok(proto, ip + ihl, tot - ihl, pseudo, false)) {
            *status |= E810_RX_FLEX_STATUS0_L4E;
        }
    }
    return l4_ptype(proto, false);
}

static uint16_t rx_ipv6(const uint8_t *ip, size_t room, uint16_t *status)
{
    size_t off = IPV6_HLEN, end;
    uint64_t pseudo;
    uint8_t nh;
    unsigned hops;

    if (room < IPV6_HLEN || (ip[0] >> 4) != 6 ||
        IPV6_HLEN + (size_t)get16(ip + 4) > room) {
        return E810_PTYPE_MAC_PAY2;
    }
    end = IPV6_HLEN + (size_t)get16(ip + 4);
    nh = ip[6];
    /* Hop-by-hop, routing and destination options are skipped. */
    for (hops = 0; hops < 8 && (nh == 0 || nh == 43 || nh == 60); hops++) {
        if (off + 8 > end) {
            return E810_PTYPE_IPV6_PAY;
        }
        nh = ip[off];
        off += ((size_t)ip[off + 1] + 1) * 8;
    }
    if (nh == 44) {
        return E810_PTYPE_IPV6_FRAG;
    }
    if (off > end) {
        return E810_PTYPE_IPV6_PAY;
    }
    if (l4_checked(nh)) {
        *status |= E810_RX_FLEX_STATUS0_L3L4P;
        pseudo = csum_add(0, ip + 8, 32) + nh + (end - off);
        if (!l4_csum_ok(nh, ip + off, end - off, pseudo, true)) {
            *status |= E810_RX_FLEX_STATUS0_L4E;
        }
    }
    return l4_ptype(nh, true);
}

uint16_t e810_lan_rx_classify(const uint8_t *frame, size_t len,
                              uint16_t *status)
{
    size_t off = 12;
    const uint8_t *f = frame;
    uint16_t type;

    *status = 0;
    if (len < ETH_HLEN) {
        return E810_PTYPE_MAC_PAY2;
    }
    type = get16(f + off);
    /* Up to two VLAN tags left in the frame. */
    while ((type == ETH_P_8021Q || type == ETH_P_8021AD) && off < 20 &&
           off + 6 <= len) {
        off += 4;
        type = get16(f + off);
    }
    off += 2;
    switch (type) {
    case ETH_P_ARP:
        return E810_PTYPE_MAC_ARP;
    case ETH_P_IP:
        return rx_ipv4(f + off, len - off, status);
    case ETH_P_IPV6:
        return rx_ipv6(f + off, len - off, status);
    default:
        return E810_PTYPE_MAC_PAY2;
    }
}
