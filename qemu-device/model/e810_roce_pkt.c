/*
 * Emulated E810: RoCEv2 header builder and parser.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_icrc.h"
#include "e810_roce_pkt.h"

#define ETH_P_IPV4      0x0800
#define ETH_P_IPV6      0x86dd
#define ETH_P_8021Q     0x8100
#define IPPROTO_UDP_NUM 17
#define IPV4_DF         0x4000

/* Per-opcode header layout; 0 = not an opcode the engine speaks. */
const uint16_t e810_roce_opf[256] = {
#define P (E810_OPF_VALID | E810_OPF_PAYLOAD)
#define S (E810_OPF_SEND | P)
#define W (E810_OPF_WRITE | P)
#define R (E810_OPF_READ_RESP | P)
#define F (E810_OPF_VALID | E810_OPF_FIRST)
#define L (E810_OPF_VALID | E810_OPF_LAST)
    [E810_BTH_RC_SEND_FIRST] = S | F,
    [E810_BTH_RC_SEND_MIDDLE] = S,
    [E810_BTH_RC_SEND_LAST] = S | L,
    [E810_BTH_RC_SEND_LAST_IMM] = S | L | E810_OPF_IMM,
    [E810_BTH_RC_SEND_ONLY] = S | F | L,
    [E810_BTH_RC_SEND_ONLY_IMM] = S | F | L | E810_OPF_IMM,
    [E810_BTH_RC_WRITE_FIRST] = W | F | E810_OPF_RETH,
    [E810_BTH_RC_WRITE_MIDDLE] = W,
    [E810_BTH_RC_WRITE_LAST] = W | L,
    [E810_BTH_RC_WRITE_LAST_IMM] = W | L | E810_OPF_IMM,
    [E810_BTH_RC_WRITE_ONLY] = W | F | L | E810_OPF_RETH,
    [E810_BTH_RC_WRITE_ONLY_IMM] = W | F | L | E810_OPF_RETH | E810_OPF_IMM,
    [E810_BTH_RC_READ_REQ] = F | L | E810_OPF_RETH,
    [E810_BTH_RC_READ_RESP_FIRST] = R | F | E810_OPF_AETH,
    [E810_BTH_RC_READ_RESP_MIDDLE] = R,
    [E810_BTH_RC_READ_RESP_LAST] = R | L | E810_OPF_AETH,
    [E810_BTH_RC_READ_RESP_ONLY] = R | F | L | E810_OPF_AETH,
    [E810_BTH_RC_ACK] = F | L | E810_OPF_AETH,
    [E810_BTH_RC_SEND_LAST_INV] = S | L | E810_OPF_IETH,
    [E810_BTH_RC_SEND_ONLY_INV] = S | F | L | E810_OPF_IETH,
    [E810_BTH_UD_SEND_ONLY] = S | F | L | E810_OPF_DETH,
    [E810_BTH_UD_SEND_ONLY_IMM] = S | F | L | E810_OPF_DETH | E810_OPF_IMM,
#undef P
#undef S
#undef W
#undef R
#undef F
#undef L
};

/* ---- byte order helpers -------------------------------------------------- */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

/*
 * RFC 1071: the one's complement sum of the 16-bit words, taken here as
 * 32-bit words (the sum folds to the same 16 bits) in a wide accumulator.
 */
static uint16_t ipv4_csum(const uint8_t *h)
{
    uint64_t sum = 0;
    unsigned i;

    for (i = 0; i < E810_IPV4_HLEN; i += 4) {
        sum += get32(h + i);
    }
    sum = (sum & 0xffffffff) + (sum >> 32);
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

/* ---- sizes --------------------------------------------------------------- */

static size_t ext_len(unsigned f)
{
    return ((f & E810_OPF_DETH) ? E810_DETH_LEN : 0) +
           ((f & E810_OPF_RETH) ? E810_RETH_LEN : 0) +
           ((f & E810_OPF_AETH) ? E810_AETH_LEN : 0) +
           ((f & E810_OPF_IMM) ? E810_IMM_LEN : 0) +
           ((f & E810_OPF_IETH) ? E810_IETH_LEN : 0);
}

static size_t l2_len(const E810RocePkt *p)
{
    return E810_ETH_HLEN + (p->vlan ? E810_VLAN_HLEN : 0);
}

static size_t l3_len(bool ipv4)
{
    return ipv4 ? E810_IPV4_HLEN : E810_IPV6_HLEN;
}

size_t e810_roce_hdr_len(const E810RocePkt *p)
{
    return l2_len(p) + l3_len(p->ipv4) + E810_UDP_HLEN + E810_BTH_LEN +
           ext_len(e810_roce_opf[p->opcode]);
}

/* ---- build --------------------------------------------------------------- */

static uint8_t *put_l2(const E810RocePkt *p, uint8_t *b)
{
    memcpy(b, p->dmac, 6);
    memcpy(b + 6, p->smac, 6);
    b += 12;
    if (p->vlan) {
        put16(b, ETH_P_8021Q);
        put16(b + 2, p->tci);
        b += 4;
    }
    put16(b, p->ipv4 ? ETH_P_IPV4 : ETH_P_IPV6);
    return b + 2;
}

static uint8_t *put_l3(const E810RocePkt *p, uint8_t *b, size_t l4len)
{
    unsigned i;

    if (p->ipv4) {
        b[0] = 0x45;
        b[1] = p->tclass;
        put16(b + 2, (uint16_t)(E810_IPV4_HLEN + l4len));
        put16(b + 4, 0);                /* identification: DF is set */
        put16(b + 6, IPV4_DF);
        b[8] = p->hop_limit;
        b[9] = IPPROTO_UDP_NUM;
        put16(b + 10, 0);
        put32(b + 12, p->sip[3]);
        put32(b + 16, p->dip[3]);
        put16(b + 10, ipv4_csum(b));
        return b + E810_IPV4_HLEN;
    }
    put32(b, 6u << 28 | (uint32_t)p->tclass << 20 |
             (p->flow_label & 0xfffff));
    put16(b + 4, (uint16_t)l4len);
    b[6] = IPPROTO_UDP_NUM;
    b[7] = p->hop_limit;
    for (i = 0; i < 4; i++) {
        put32(b + 8 + 4 * i, p->sip[i]);
        put32(b + 24 + 4 * i, p->dip[i]);
    }
    return b + E810_IPV6_HLEN;
}

static uint8_t *put_bth(const E810RocePkt *p, uint8_t *b)
{
    unsigned f = e810_roce_opf[p->opcode];

    b[0] = p->opcode;
    b[1] = (p->se ? 0x80 : 0) | (p->mig ? 0x40 : 0) | (p->pad & 3) << 4;
    put16(b + 2, p->pkey);
    b[4] = p->becn ? 0x40 : 0;      /* FECN, BECN, resv6 */
    put32(b + 4, (uint32_t)b[4] << 24 | (p->dqpn & E810_BTH_QPN_MASK));
    put32(b + 8, (p->ackreq ? 0x80000000u : 0) | (p->psn & E810_BTH_PSN_MASK));
    b += E810_BTH_LEN;
    if (f & E810_OPF_DETH) {
        put32(b, p->qkey);
        put32(b + 4, p->sqpn & E810_DETH_SQPN_MASK);
        b += E810_DETH_LEN;
    }
    if (f & E810_OPF_RETH) {
        put32(b, (uint32_t)(p->va >> 32));
        put32(b + 4, (uint32_t)p->va);
        put32(b + 8, p->rkey);
        put32(b + 12, p->dma_len);
        b += E810_RETH_LEN;
    }
    if (f & E810_OPF_AETH) {
        put32(b, (uint32_t)p->syndrome << 24 | (p->msn & 0xffffff));
        b += E810_AETH_LEN;
    }
    if (f & E810_OPF_IMM) {
        put32(b, p->imm);
        b += E810_IMM_LEN;
    }
    if (f & E810_OPF_IETH) {
        put32(b, p->ieth);
        b += E810_IETH_LEN;
    }
    return b;
}

size_t e810_roce_finish(E810RocePkt *p, uint8_t *frame, uint32_t paylen,
                        bool icrc)
{
    size_t hl = e810_roce_hdr_len(p);
    size_t l3 = l2_len(p);
    unsigned pad = (4 - (paylen & 3)) & 3;
    size_t l4len = hl - l3 - l3_len(p->ipv4) + paylen + pad + E810_ICRC_LEN;
    size_t total = hl + paylen + pad + E810_ICRC_LEN;
    uint8_t *b;
    uint32_t crc = 0;

    p->pad = pad;
    b = put_l2(p, frame);
    b = put_l3(p, b, l4len);
    put16(b, p->sport);
    put16(b + 2, E810_ROCE_UDP_PORT);
    put16(b + 4, (uint16_t)l4len);
    put16(b + 6, 0);                /* no UDP checksum: the ICRC covers it */
    put_bth(p, b + E810_UDP_HLEN);
    memset(frame + hl + paylen, 0, pad);
    if (icrc) {
        crc = e810_icrc(frame + l3, total - l3 - E810_ICRC_LEN, p->ipv4);
    }
    b = frame + total - E810_ICRC_LEN;
    b[0] = crc;
    b[1] = crc >> 8;
    b[2] = crc >> 16;
    b[3] = crc >> 24;
    return total;
}

/* ---- parse --------------------------------------------------------------- */

/* Finds the L3 header; false if the frame is not IPv4/IPv6. */
static bool find_l3(const uint8_t *f, size_t len, size_t *off, bool *ipv4,
                    bool *vlan, uint16_t *tci)
{
    uint16_t type;

    if (len < E810_ETH_HLEN) {
        return false;
    }
    type = get16(f + 12);
    *off = E810_ETH_HLEN;
    *vlan = false;
    if (type == ETH_P_8021Q) {
        if (len < E810_ETH_HLEN + E810_VLAN_HLEN) {
            return false;
        }
        *vlan = true;
        *tci = get16(f + 14);
        type = get16(f + 16);
        *off += E810_VLAN_HLEN;
    }
    if (type != ETH_P_IPV4 && type != ETH_P_IPV6) {
        return false;
    }
    *ipv4 = type == ETH_P_IPV4;
    return true;
}

bool e810_roce_is_rocev2(const uint8_t *f, size_t len)
{
    size_t off, udp;
    bool ipv4, vlan;
    uint16_t tci;

    if (!find_l3(f, len, &off, &ipv4, &vlan, &tci)) {
        return false;
    }
    if (ipv4) {
        if (len < off + E810_IPV4_HLEN || f[off + 9] != IPPROTO_UDP_NUM ||
            (f[off] & 0x0f) != 5) {
            return false;
        }
        udp = off + E810_IPV4_HLEN;
    } else {
        if (len < off + E810_IPV6_HLEN || f[off + 6] != IPPROTO_UDP_NUM) {
            return false;
        }
        udp = off + E810_IPV6_HLEN;
    }
    return len >= udp + E810_UDP_HLEN &&
           get16(f + udp + 2) == E810_ROCE_UDP_PORT;
}

static E810RoceErr parse_l3(const uint8_t *f, size_t len, size_t off,
                            E810RocePkt *p, size_t *l4off, size_t *l4len)
{
    const uint8_t *h = f + off;
    unsigned i;

    if (p->ipv4) {
        uint16_t tot;

        if (len < off + E810_IPV4_HLEN) {
            return E810_ROCE_SHORT;
        }
        if (h[9] != IPPROTO_UDP_NUM) {
            return E810_ROCE_NOT_ROCE;
        }
        tot = get16(h + 2);
        /* No options, no fragments, a valid checksum, a sane length. */
        if (h[0] != 0x45 || (get16(h + 6) & 0x3fff) || ipv4_csum(h) != 0 ||
            tot < E810_IPV4_HLEN + E810_UDP_HLEN || tot > len - off) {
            return E810_ROCE_BAD_IP;
        }
        p->tclass = h[1];
        p->hop_limit = h[8];
        p->flow_label = 0;
        memset(p->sip, 0, sizeof(p->sip));
        memset(p->dip, 0, sizeof(p->dip));
        p->sip[3] = get32(h + 12);
        p->dip[3] = get32(h + 16);
        *l4off = off + E810_IPV4_HLEN;
        *l4len = tot - E810_IPV4_HLEN;
        return E810_ROCE_OK;
    }
    if (len < off + E810_IPV6_HLEN) {
        return E810_ROCE_SHORT;
    }
    if (h[6] != IPPROTO_UDP_NUM) {
        return E810_ROCE_NOT_ROCE;  /* extension headers are not used */
    }
    if ((h[0] >> 4) != 6 || get16(h + 4) > len - off - E810_IPV6_HLEN) {
        return E810_ROCE_BAD_IP;
    }
    p->tclass = (uint8_t)(get32(h) >> 20);
    p->flow_label = get32(h) & 0xfffff;
    p->hop_limit = h[7];
    for (i = 0; i < 4; i++) {
        p->sip[i] = get32(h + 8 + 4 * i);
        p->dip[i] = get32(h + 24 + 4 * i);
    }
    *l4off = off + E810_IPV6_HLEN;
    *l4len = get16(h + 4);
    return E810_ROCE_OK;
}

static void parse_ext(const uint8_t *b, unsigned f, E810RocePkt *p)
{
    if (f & E810_OPF_DETH) {
        p->qkey = get32(b);
        p->sqpn = get32(b + 4) & E810_DETH_SQPN_MASK;
        b += E810_DETH_LEN;
    }
    if (f & E810_OPF_RETH) {
        p->va = (uint64_t)get32(b) << 32 | get32(b + 4);
        p->rkey = get32(b + 8);
        p->dma_len = get32(b + 12);
        b += E810_RETH_LEN;
    }
    if (f & E810_OPF_AETH) {
        p->syndrome = b[0];
        p->msn = get32(b) & 0xffffff;
        b += E810_AETH_LEN;
    }
    if (f & E810_OPF_IMM) {
        p->imm = get32(b);
        b += E810_IMM_LEN;
    }
    if (f & E810_OPF_IETH) {
        p->ieth = get32(b);
    }
}

E810RoceErr e810_roce_parse(const uint8_t *f, size_t len, E810RocePkt *p,
                            bool icrc)
{
    size_t off, l4off, l4len, bth, hl, body;
    const uint8_t *ic;
    E810RoceErr err;
    unsigned fl;

    memset(p, 0, sizeof(*p));
    if (!find_l3(f, len, &off, &p->ipv4, &p->vlan, &p->tci)) {
        return len < E810_ETH_HLEN ? E810_ROCE_SHORT : E810_ROCE_NOT_ROCE;
    }
    memcpy(p->dmac, f, 6);
    memcpy(p->smac, f + 6, 6);
    err = parse_l3(f, len, off, p, &l4off, &l4len);
    if (err) {
        return err;
    }
    if (l4len < E810_UDP_HLEN) {
        return E810_ROCE_BAD_UDP;
    }
    if (get16(f + l4off + 2) != E810_ROCE_UDP_PORT) {
        return E810_ROCE_NOT_ROCE;
    }
    if (get16(f + l4off + 4) != l4len) {
        return E810_ROCE_BAD_UDP;
    }
    p->sport = get16(f + l4off);
    if (l4len < E810_UDP_HLEN + E810_BTH_LEN + E810_ICRC_LEN) {
        return E810_ROCE_SHORT;
    }
    p->l3 = f + off;
    /* Frames may be padded to the Ethernet minimum: trust IP's length. */
    ic = f + l4off + l4len - E810_ICRC_LEN;
    if (icrc) {
        uint32_t want = (uint32_t)ic[0] | (uint32_t)ic[1] << 8 |
                        (uint32_t)ic[2] << 16 | (uint32_t)ic[3] << 24;

        if (e810_icrc(f + off, (size_t)(ic - (f + off)), p->ipv4) != want) {
            return E810_ROCE_BAD_ICRC;
        }
    }
    bth = l4off + E810_UDP_HLEN;
    p->opcode = f[bth];
    p->se = f[bth + 1] & 0x80;
    p->mig = f[bth + 1] & 0x40;
    p->pad = (f[bth + 1] >> 4) & 3;
    if (f[bth + 1] & 0x0f) {
        return E810_ROCE_BAD_VERSION;
    }
    p->pkey = get16(f + bth + 2);
    p->becn = f[bth + 4] & 0x40;
    p->dqpn = get32(f + bth + 4) & E810_BTH_QPN_MASK;
    p->ackreq = f[bth + 8] & 0x80;
    p->psn = get32(f + bth + 8) & E810_BTH_PSN_MASK;
    fl = e810_roce_op_flags(p->opcode);
    if (!fl) {
        return E810_ROCE_BAD_OPCODE;
    }
    hl = E810_UDP_HLEN + E810_BTH_LEN + ext_len(fl);
    if (l4len < hl + E810_ICRC_LEN) {
        return E810_ROCE_SHORT;
    }
    body = l4len - hl - E810_ICRC_LEN;
    if (p->pad > body || (!(fl & E810_OPF_PAYLOAD) && body) ||
        (body & 3) || body - p->pad > E810_ROCE_MAX_MTU) {
        return E810_ROCE_BAD_LEN;
    }
    parse_ext(f + bth + E810_BTH_LEN, fl, p);
    p->payload = f + l4off + hl;
    p->paylen = (uint32_t)(body - p->pad);
    return E810_ROCE_OK;
}

E810RoceErr e810_roce_parse_ref(const uint8_t *hdr, size_t hlen, size_t len,
                                const uint8_t *payload, uint32_t paylen,
                                E810RocePkt *p)
{
    E810RoceErr err;

    if (hlen > len || len - hlen < paylen) {
        return E810_ROCE_BAD_LEN;
    }
    err = e810_roce_parse(hdr, len, p, false);
    if (err) {
        return err;
    }
    if (p->payload != hdr + hlen || p->paylen != paylen) {
        return E810_ROCE_BAD_LEN;
    }
    p->payload = payload;
    return E810_ROCE_OK;
}
