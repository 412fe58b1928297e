// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * TCP segments of the connection manager: what the ILQ hands us, parsed
 * and checked (everything in it came from the wire), and the segments we
 * send, built (docs/irdma.md "iWARP connection manager").
 *
 * Receive layout (GEN_2, upstream irdma_puda_get_tcpip_info()): no
 * Ethernet header; an IPv4 header at byte 20 (bytes 0-19 unused) or an
 * IPv6 header at byte 0; the TCP header at byte 40; the payload after it.
 * The engine only steers IPv4 without options and IPv6 without extension
 * headers to the ILQ, so anything else is malformed here.
 *
 * Transmit: the TCP header (the engine adds L2/L3 from the address handle
 * and computes the checksum, which we leave 0: upstream
 * irdma_form_ah_cm_frame()), options on SYN and SYN-ACK only (MSS, window
 * scale, end of list: 8 bytes, as upstream irdma_send_syn()), payload.
 */
#include "cm.h"

static u16 get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

/* TCP options (RFC 9293 section 3.2, RFC 7323 section 2). */
#define TCPOPT_EOL	0
#define TCPOPT_NOP	1
#define TCPOPT_MSS	2
#define TCPOPT_WS	3
#define TCPOLEN_MSS	4
#define TCPOLEN_WS	3
#define TCP_MAX_WS	14

static int parse_options(const u8 *p, u32 len, struct e810cm_seg *s)
{
	u32 i = 0, olen;

	while (i < len) {
		switch (p[i]) {
		case TCPOPT_EOL:
			return 0;
		case TCPOPT_NOP:
			i++;
			continue;
		default:
			break;
		}
		if (i + 1 >= len)
			return -EINVAL;
		olen = p[i + 1];
		if (olen < 2 || i + olen > len)
			return -EINVAL;
		switch (p[i]) {
		case TCPOPT_MSS:
			if (olen != TCPOLEN_MSS || s->has_mss)
				return -EINVAL;
			s->has_mss = true;
			s->mss = get16(p + i + 2);
			break;
		case TCPOPT_WS:
			if (olen != TCPOLEN_WS || s->has_ws)
				return -EINVAL;
			s->has_ws = true;
			/* RFC 7323 2.3: larger shifts are taken as 14 */
			s->ws = p[i + 2] > TCP_MAX_WS ? TCP_MAX_WS : p[i + 2];
			break;
		default:
			break;	/* SACK-permitted, timestamps: not used */
		}
		i += olen;
	}
	return 0;
}

/**
 * e810cm_seg_parse() - check and decode one segment of an ILQ buffer
 * @buf: the receive buffer
 * @len: bytes the CQE reports (40 + TCP header + payload)
 * @ipv4: the CQE's IPV4 flag
 * @s: the segment (out); its payload points into @buf
 *
 * Return: 0, or -EINVAL for anything malformed: a length that does not
 * match the IP header's, another IP version or protocol, IPv4 options or
 * fragments, a bad TCP data offset, malformed or duplicate MSS / window
 * scale options.
 */
int e810cm_seg_parse(const u8 *buf, u32 len, bool ipv4, struct e810cm_seg *s)
{
	u32 l4_len, hlen;
	const u8 *ip, *th;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (!buf || len < E810CM_ILQ_TCP_OFF + E810CM_TCP_HLEN_MIN)
		return -EINVAL;
	l4_len = len - E810CM_ILQ_TCP_OFF;
	if (ipv4) {
		ip = buf + E810CM_ILQ_TCP_OFF - 20;
		/* version 4, IHL 5, total length, no fragment, TCP */
		if (ip[0] != 0x45 || get16(ip + 2) != 20 + l4_len ||
		    (get16(ip + 6) & 0x3fff) || ip[9] != 6)
			return -EINVAL;
		s->ipv4 = true;
		s->rip[0] = get32(ip + 12);
		s->lip[0] = get32(ip + 16);
		s->tos = ip[1];
		s->ttl = ip[8];
	} else {
		ip = buf;
		/* version 6, payload length, next header TCP */
		if ((ip[0] >> 4) != 6 || get16(ip + 4) != l4_len || ip[6] != 6)
			return -EINVAL;
		for (i = 0; i < 4; i++) {
			s->rip[i] = get32(ip + 8 + 4 * i);
			s->lip[i] = get32(ip + 24 + 4 * i);
		}
		s->tos = (u8)((ip[0] & 0x0f) << 4 | ip[1] >> 4);
		s->ttl = ip[7];
	}
	th = buf + E810CM_ILQ_TCP_OFF;
	hlen = (u32)(th[12] >> 4) * 4;
	if (hlen < E810CM_TCP_HLEN_MIN || hlen > l4_len)
		return -EINVAL;
	s->rport = get16(th);
	s->lport = get16(th + 2);
	s->seq = get32(th + 4);
	s->ack = get32(th + 8);
	s->flags = th[13];
	s->window = get16(th + 14);
	s->hlen = hlen;
	if (!s->rport || !s->lport)
		return -EINVAL;
	if (parse_options(th + E810CM_TCP_HLEN_MIN,
			  hlen - E810CM_TCP_HLEN_MIN, s))
		return -EINVAL;
	s->payload = th + hlen;
	s->payload_len = l4_len - hlen;
	return 0;
}

/**
 * e810cm_seg_build() - build a TCP header (+ options) and payload
 * @buf: where the segment goes
 * @len: room in @buf
 * @s: ports, sequence numbers, flags, window; options when has_mss/has_ws
 *	(then both, as upstream sends them: MSS, window scale, end of list);
 *	payload and payload_len
 *
 * Return: the segment's length (s->hlen is set too), or -EINVAL /
 * -ENOSPC.
 */
int e810cm_seg_build(u8 *buf, u32 len, struct e810cm_seg *s)
{
	u32 hlen = E810CM_TCP_HLEN_MIN, total;
	u8 *o;

	if (s->has_mss != s->has_ws || s->ws > TCP_MAX_WS ||
	    (s->payload_len && !s->payload))
		return -EINVAL;
	if (s->has_mss)
		hlen += TCPOLEN_MSS + TCPOLEN_WS + 1;
	total = hlen + s->payload_len;
	if (total > len || s->payload_len > len)
		return -ENOSPC;
	memset(buf, 0, hlen);
	put16(buf, s->lport);
	put16(buf + 2, s->rport);
	put32(buf + 4, s->seq);
	put32(buf + 8, s->ack);
	buf[12] = (u8)(hlen / 4) << 4;
	buf[13] = s->flags;
	put16(buf + 14, s->window);
	/* checksum (16) and urgent pointer (18) stay 0 */
	if (s->has_mss) {
		o = buf + E810CM_TCP_HLEN_MIN;
		o[0] = TCPOPT_MSS;
		o[1] = TCPOLEN_MSS;
		put16(o + 2, s->mss);
		o[4] = TCPOPT_WS;
		o[5] = TCPOLEN_WS;
		o[6] = s->ws;
		o[7] = TCPOPT_EOL;
	}
	if (s->payload_len)
		memcpy(buf + hlen, s->payload, s->payload_len);
	s->hlen = hlen;
	return (int)total;
}

/* Serial number arithmetic (RFC 1982): a before b. */
bool e810cm_seq_before(u32 a, u32 b)
{
	return (int)(a - b) < 0;
}
