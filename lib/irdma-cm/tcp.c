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

/* ---- one connection's sequence space before the offload ------------------ */

/* Receive window: upstream's iwdev->rcv_wnd (0x3FFFC) at scale 2. */
#define E810CM_RCV_WND		0x3fffc
#define E810CM_RCV_WSCALE	2
/* MSS assumed without an option (RFC 9293 3.7.1). */
#define E810CM_DEFAULT_MSS	536

/**
 * e810cm_tcb_init() - a fresh sequence space
 * @t: the block
 * @isn: our initial sequence number (the glue picks it, as
 *	secure_tcp_seq() does upstream)
 * @mss: our MSS (netdev MTU - 40 / - 60)
 * @min_mss: the smallest MSS the peer may announce (576 - 40 for IPv4,
 *	1280 - 60 for IPv6: upstream aborts below)
 */
void e810cm_tcb_init(struct e810cm_tcb *t, u32 isn, u16 mss, u16 min_mss)
{
	memset(t, 0, sizeof(*t));
	t->snd_nxt = isn;
	t->snd_una = isn;
	t->mss = mss;
	t->min_mss = min_mss;
	t->rcv_wnd = E810CM_RCV_WND;
	t->rcv_wscale = E810CM_RCV_WSCALE;
}

/* Options of a SYN or SYN-ACK: the MSS the peer may send us, its scale. */
static int tcb_syn_options(struct e810cm_tcb *t, const struct e810cm_seg *s)
{
	u16 mss = s->has_mss ? s->mss : E810CM_DEFAULT_MSS;

	if (mss < t->min_mss)
		return -EINVAL;
	if (mss < t->mss)
		t->mss = mss;
	t->snd_wscale = s->has_ws ? s->ws : 0;
	/* RFC 7323 2.2: the window of a SYN is never scaled. */
	t->snd_wnd = s->window;
	return 0;
}

/* @s's sequence number lies in our receive window. */
static bool tcb_seq_ok(const struct e810cm_tcb *t, const struct e810cm_seg *s)
{
	return !e810cm_seq_before(s->seq, t->rcv_nxt) &&
	       !e810cm_seq_before(t->rcv_nxt + t->rcv_wnd, s->seq);
}

/**
 * e810cm_tcb_rx() - account a parsed segment, classify it for e810cm_step()
 * @t: the connection's block
 * @s: the segment (e810cm_seg_parse())
 * @rx: what it means (out): the events to feed the state machine, in
 *	order, and the new in-order payload (the MPA frame)
 *
 * As upstream irdma_process_pkt() and irdma_check_seq(): an RST in the
 * window resets; a SYN (no ACK) opens; a SYN-ACK must acknowledge exactly
 * our SYN; an ACK must acknowledge exactly what we sent and its sequence
 * number lie in the window; a FIN counts once in sequence. Payload is
 * taken only in order (no reassembly before the offload: the peer
 * retransmits).
 *
 * Return: 0; -EINVAL for a segment to drop (out of window, bad options,
 * wrong acknowledgment of our data); -ECONNRESET when a SYN-ACK
 * acknowledges something else (upstream answers with RST).
 */
int e810cm_tcb_rx(struct e810cm_tcb *t, const struct e810cm_seg *s,
		  struct e810cm_rx *rx)
{
	u8 f = s->flags;

	memset(rx, 0, sizeof(*rx));
	if (f & E810CM_TCP_RST) {
		if (t->synced && !tcb_seq_ok(t, s))
			return -EINVAL;
		rx->ev[rx->num++] = E810CM_EV_RX_RST;
		return 0;
	}
	if (f & E810CM_TCP_SYN) {
		if (f & E810CM_TCP_ACK) {
			if (t->synced)
				return -EINVAL;	/* a duplicate SYN-ACK */
			if (s->ack != t->snd_nxt)
				return -ECONNRESET;
			if (tcb_syn_options(t, s))
				return -EINVAL;
			t->snd_una = s->ack;
			t->rcv_nxt = s->seq + 1;
			t->synced = true;
			rx->ev[rx->num++] = E810CM_EV_RX_SYNACK;
			return 0;
		}
		if (t->synced)
			return -EINVAL;	/* a retransmitted SYN: ours answers */
		if (tcb_syn_options(t, s))
			return -EINVAL;
		t->rcv_nxt = s->seq + 1;
		t->synced = true;
		rx->ev[rx->num++] = E810CM_EV_RX_SYN;
		return 0;
	}
	if (!t->synced || !tcb_seq_ok(t, s))
		return -EINVAL;
	if (f & E810CM_TCP_ACK) {
		if (s->ack != t->snd_nxt)
			return -EINVAL;
		t->snd_wnd = (u32)s->window << t->snd_wscale;
		if (t->snd_una != s->ack) {
			t->snd_una = s->ack;
			rx->ev[rx->num++] = E810CM_EV_RX_ACK;
		}
	}
	if (s->seq == t->rcv_nxt && s->payload_len) {
		rx->data = s->payload;
		rx->data_len = s->payload_len;
		t->rcv_nxt += s->payload_len;
	}
	if ((f & E810CM_TCP_FIN) && s->seq + s->payload_len == t->rcv_nxt &&
	    !t->fin_rcvd) {
		t->fin_rcvd = true;
		t->rcv_nxt++;
		rx->ev[rx->num++] = E810CM_EV_RX_FIN;
	}
	return 0;
}

/**
 * e810cm_tcb_tx() - build our next segment and advance our sequence space
 * @t: the block
 * @flags: E810CM_TCP_*; with SYN the MSS and window scale options go too
 * @payload: bytes to send (the MPA frame), or NULL
 * @len: their number
 * @buf: where the segment goes
 * @buflen: room
 *
 * Ports come from @t; ACK carries rcv_nxt; SYN and FIN take one sequence
 * number, the payload its length (upstream irdma_form_ah_cm_frame()).
 *
 * Return: the segment's length, or e810cm_seg_build()'s error.
 */
int e810cm_tcb_tx(struct e810cm_tcb *t, u8 flags, const u8 *payload, u32 len,
		  u8 *buf, u32 buflen)
{
	struct e810cm_seg s = {
		.lport = t->lport,
		.rport = t->rport,
		.seq = t->snd_nxt,
		.ack = (flags & E810CM_TCP_ACK) ? t->rcv_nxt : 0,
		.flags = flags,
		.window = (u16)(t->rcv_wnd >> t->rcv_wscale),
		.payload = payload,
		.payload_len = len,
	};
	int n;

	if (flags & E810CM_TCP_SYN) {
		s.has_mss = true;
		s.mss = t->mss;
		s.has_ws = true;
		s.ws = t->rcv_wscale;
	}
	n = e810cm_seg_build(buf, buflen, &s);
	if (n < 0)
		return n;
	t->snd_nxt += len + ((flags & E810CM_TCP_SYN) ? 1 : 0) +
		      ((flags & E810CM_TCP_FIN) ? 1 : 0);
	return n;
}

/**
 * e810cm_retx_timeout() - how long to wait for the ACK of a frame
 * @sent: times it has been sent (1 after the first transmission)
 *
 * The frames awaiting an ACK before the offload (SYN, SYN-ACK, MPA
 * Request, Reject and FIN) are sent again after 1 s, the wait doubling
 * each time up to 12 s, retransmitted at most E810CM_RETX_MAX times
 * (upstream irdma_cm_timer_tick() and irdma_schedule_cm_timer()).
 *
 * Return: the wait in milliseconds after the @sent-th transmission, or 0
 * when there is no such transmission: the wait after the last one over,
 * the connection times out.
 */
u32 e810cm_retx_timeout(u32 sent)
{
	u32 ms = E810CM_RETX_FIRST_MS;

	if (!sent || sent > E810CM_RETX_MAX + 1)
		return 0;
	while (--sent && ms < E810CM_RETX_MAX_MS)
		ms *= 2;
	return ms < E810CM_RETX_MAX_MS ? ms : E810CM_RETX_MAX_MS;
}
