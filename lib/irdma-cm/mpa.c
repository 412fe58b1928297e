// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MPA Request/Reply frames (RFC 5044 section 7.1) with the enhanced
 * connection setup of RFC 6581 section 9 (revision 2: IRD/ORD words with
 * the peer-to-peer and RTR control flags), and their negotiation.
 *
 * Frame: 16-byte key, flags (M C R, then reserved bits), revision, 16-bit
 * big-endian private data length, private data. In revision 2 the private
 * data begins with two big-endian words, A|B|IRD and C|D|ORD.
 *
 * What we build is what upstream irdma builds (irdma_build_mpa_v2()):
 * CRC always, never markers, the 0x10 flag in revision 2 frames. What we
 * accept is stricter in form (lengths, keys, flags that make no sense in
 * the frame type) and more tolerant in one point: a revision 2 Request
 * without the peer-to-peer flag (siw sends it) is accepted as RFC 6581
 * allows, with no RTR exchange, where irdma resets the connection.
 */

#include "cm.h"

#define E810CM_KEY_REQ	"MPA ID Req Frame"
#define E810CM_KEY_REP	"MPA ID Rep Frame"

static u16 e810cm_get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static void e810cm_put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static u16 e810cm_min16(u16 a, u16 b)
{
	return a < b ? a : b;
}

/* At most one RTR type, as a Reply must carry. */
static bool e810cm_rtr_single(u8 rtr)
{
	return !(rtr & (rtr - 1));
}

/**
 * e810cm_mpa_build() - write an MPA Request or Reply
 * @buf: where the frame goes
 * @len: room at @buf
 * @mpa: the frame; @mpa->enhanced is not read (set in every revision 2
 *	frame)
 *
 * Return: the frame's length, -EINVAL for a frame that cannot exist
 * (revision not 1 or 2, R in a Request, IRD/ORD above 14 bits, RTR types
 * without the peer-to-peer flag or several in a Reply), -EMSGSIZE for
 * private data beyond E810CM_MPA_MAX_PD, -ENOSPC if @len is too short.
 */
int e810cm_mpa_build(u8 *buf, u32 len, const struct e810cm_mpa *mpa)
{
	u32 words = mpa->rev == 2 ? E810CM_MPA_V2_RTR_LEN : 0;
	u32 pd_field = words + mpa->pd_len;
	u16 ird, ord;
	u8 flags = 0;

	if (mpa->rev != 1 && mpa->rev != 2)
		return -EINVAL;
	if (mpa->reject && mpa->type != E810CM_MPA_REPLY)
		return -EINVAL;
	if (mpa->rev == 2) {
		if (mpa->ird > E810CM_MPA_V2_IRD_ORD_MASK ||
		    mpa->ord > E810CM_MPA_V2_IRD_ORD_MASK ||
		    (mpa->rtr & ~E810CM_RTR_ALL) ||
		    (mpa->rtr && !mpa->p2p))
			return -EINVAL;
		if (mpa->type == E810CM_MPA_REPLY &&
		    !e810cm_rtr_single(mpa->rtr))
			return -EINVAL;
	}
	if (pd_field > E810CM_MPA_MAX_PD)
		return -EMSGSIZE;
	if (E810CM_MPA_HDR_LEN + pd_field > len)
		return -ENOSPC;

	memcpy(buf, mpa->type == E810CM_MPA_REQUEST ? E810CM_KEY_REQ :
	       E810CM_KEY_REP, E810CM_MPA_KEY_LEN);
	if (mpa->markers)
		flags |= E810CM_MPA_FLAG_MARKERS;
	if (mpa->crc)
		flags |= E810CM_MPA_FLAG_CRC;
	if (mpa->reject)
		flags |= E810CM_MPA_FLAG_REJECT;
	if (mpa->rev == 2)
		flags |= E810CM_MPA_FLAG_ENHANCED;
	buf[16] = flags;
	buf[17] = mpa->rev;
	e810cm_put_be16(buf + 18, (u16)pd_field);

	if (mpa->rev == 2) {
		ird = mpa->ird;
		ord = mpa->ord;
		if (mpa->p2p)
			ird |= E810CM_MPA_V2_IRD_P2P;
		if (mpa->rtr & E810CM_RTR_SEND)
			ird |= E810CM_MPA_V2_IRD_ZERO_RTR;
		if (mpa->rtr & E810CM_RTR_WRITE)
			ord |= E810CM_MPA_V2_ORD_WRITE_RTR;
		if (mpa->rtr & E810CM_RTR_READ)
			ord |= E810CM_MPA_V2_ORD_READ_RTR;
		e810cm_put_be16(buf + E810CM_MPA_HDR_LEN, ird);
		e810cm_put_be16(buf + E810CM_MPA_HDR_LEN + 2, ord);
	}
	if (mpa->pd_len)
		memcpy(buf + E810CM_MPA_HDR_LEN + words, mpa->pd, mpa->pd_len);
	return (int)(E810CM_MPA_HDR_LEN + pd_field);
}

/**
 * e810cm_mpa_parse() - decode the MPA frame at the start of a byte stream
 * @buf: the bytes received so far after the TCP handshake
 * @len: their number
 * @type: the frame expected (a Request on the passive side, a Reply on
 *	the active side)
 * @max_rev: the highest revision accepted (the one we sent, for a Reply)
 * @mpa: the frame; @mpa->pd points into @buf
 *
 * Reserved flag bits are ignored (RFC 5044 section 7.1). Bytes after the
 * frame are not looked at: the caller decides whether they may be there.
 *
 * Return: the frame's length; -EAGAIN while the frame is incomplete;
 * -EBADMSG for a wrong key, R in a Request, revision 0, a revision 2
 * frame without its IRD/ORD words, RTR flags without the peer-to-peer
 * flag or several RTR types in a Reply; -EPROTONOSUPPORT for a revision
 * above @max_rev; -EMSGSIZE for private data beyond E810CM_MPA_MAX_PD.
 */
int e810cm_mpa_parse(const u8 *buf, u32 len, enum e810cm_mpa_type type,
		     u8 max_rev, struct e810cm_mpa *mpa)
{
	u16 pd_field, ird, ord;
	u8 flags;

	memset(mpa, 0, sizeof(*mpa));
	if (len < E810CM_MPA_HDR_LEN)
		return -EAGAIN;
	if (memcmp(buf, type == E810CM_MPA_REQUEST ? E810CM_KEY_REQ :
		   E810CM_KEY_REP, E810CM_MPA_KEY_LEN))
		return -EBADMSG;

	flags = buf[16];
	mpa->type = type;
	mpa->rev = buf[17];
	mpa->markers = flags & E810CM_MPA_FLAG_MARKERS;
	mpa->crc = flags & E810CM_MPA_FLAG_CRC;
	mpa->reject = flags & E810CM_MPA_FLAG_REJECT;
	mpa->enhanced = flags & E810CM_MPA_FLAG_ENHANCED;
	pd_field = e810cm_get_be16(buf + 18);

	if (mpa->reject && type == E810CM_MPA_REQUEST)
		return -EBADMSG;
	if (!mpa->rev)
		return -EBADMSG;
	if (mpa->rev > max_rev || mpa->rev > 2)
		return -EPROTONOSUPPORT;
	if (pd_field > E810CM_MPA_MAX_PD)
		return -EMSGSIZE;
	if (len < E810CM_MPA_HDR_LEN + (u32)pd_field)
		return -EAGAIN;

	mpa->pd = buf + E810CM_MPA_HDR_LEN;
	mpa->pd_len = pd_field;
	if (mpa->rev == 1)
		return E810CM_MPA_HDR_LEN + pd_field;

	if (pd_field < E810CM_MPA_V2_RTR_LEN)
		return -EBADMSG;
	ird = e810cm_get_be16(buf + E810CM_MPA_HDR_LEN);
	ord = e810cm_get_be16(buf + E810CM_MPA_HDR_LEN + 2);
	mpa->p2p = ird & E810CM_MPA_V2_IRD_P2P;
	if (ird & E810CM_MPA_V2_IRD_ZERO_RTR)
		mpa->rtr |= E810CM_RTR_SEND;
	if (ord & E810CM_MPA_V2_ORD_WRITE_RTR)
		mpa->rtr |= E810CM_RTR_WRITE;
	if (ord & E810CM_MPA_V2_ORD_READ_RTR)
		mpa->rtr |= E810CM_RTR_READ;
	mpa->ird = ird & E810CM_MPA_V2_IRD_ORD_MASK;
	mpa->ord = ord & E810CM_MPA_V2_IRD_ORD_MASK;
	mpa->pd += E810CM_MPA_V2_RTR_LEN;
	mpa->pd_len -= E810CM_MPA_V2_RTR_LEN;

	if (mpa->rtr && !mpa->p2p)
		return -EBADMSG;
	if (type == E810CM_MPA_REPLY && !e810cm_rtr_single(mpa->rtr))
		return -EBADMSG;
	return E810CM_MPA_HDR_LEN + pd_field;
}

/**
 * e810cm_mpa_feed() - gather an MPA frame from a connection's payload
 * @rx: the connection's frame so far (zeroed at the connection's start)
 * @data: the new in-order payload of one segment
 * @len: its length
 * @type: the frame expected
 * @max_rev: as e810cm_mpa_parse()
 * @mpa: the frame once complete; @mpa->pd points into @rx
 *
 * The frame may come in several segments (a peer's TCP may split it);
 * nothing may follow it before the offload: RFC 5044 section 7.1 has the
 * initiator wait for the Reply, and the responder in the peer-to-peer
 * model for the initiator's RTR, which the offloaded connection takes.
 *
 * Return: the frame's length once complete; -EAGAIN while not;
 * -EMSGSIZE when the bytes exceed the longest frame or follow a complete
 * one; e810cm_mpa_parse()'s errors for a malformed frame.
 */
int e810cm_mpa_feed(struct e810cm_mpa_rx *rx, const u8 *data, u32 len,
		    enum e810cm_mpa_type type, u8 max_rev,
		    struct e810cm_mpa *mpa)
{
	int n;

	memset(mpa, 0, sizeof(*mpa));
	if (len > sizeof(rx->buf) - rx->len)
		return -EMSGSIZE;
	if (len)
		memcpy(rx->buf + rx->len, data, len);
	rx->len += len;
	n = e810cm_mpa_parse(rx->buf, rx->len, type, max_rev, mpa);
	if (n > 0 && (u32)n != rx->len)
		return -EMSGSIZE;
	return n;
}

/**
 * e810cm_mpa_request() - the Request an initiator sends
 * @local: local IRD, ORD and the RTR types offered
 * @rev: 1 or 2
 * @req: the Request, without private data
 *
 * CRC always, no markers (as irdma). Revision 2 offers the peer-to-peer
 * model when any RTR type is offered; a READ RTR only with an ORD of at
 * least 1, since the initiator issues that zero-length RDMA Read.
 */
void e810cm_mpa_request(const struct e810cm_neg *local, u8 rev,
			struct e810cm_mpa *req)
{
	memset(req, 0, sizeof(*req));
	req->type = E810CM_MPA_REQUEST;
	req->rev = rev;
	req->crc = true;
	if (rev != 2)
		return;
	req->enhanced = true;
	req->ird = e810cm_min16(local->ird, E810CM_MPA_V2_IRD_ORD_MASK);
	req->ord = e810cm_min16(local->ord, E810CM_MPA_V2_IRD_ORD_MASK);
	req->rtr = local->rtr & E810CM_RTR_ALL;
	if (!req->ord)
		req->rtr &= ~E810CM_RTR_READ;
	req->p2p = req->rtr != 0;
}

/**
 * e810cm_mpa_respond() - negotiate as the responder
 * @req: the Request received (parsed)
 * @local: in: local IRD and ORD; out: the outcome
 * @rep: the Reply to send, without private data
 *
 * Revision: the Request's. Markers are refused (we never send them).
 * Revision 2: ORD is lowered to the initiator's IRD, our IRD is
 * advertised as it is (the initiator lowers its ORD to it). With the
 * peer-to-peer flag one RTR type is chosen from those offered: a READ if
 * offered and both sides can have one Read outstanding, else a WRITE
 * (upstream irdma's order); a SEND-only offer cannot be served. Without
 * the flag (RFC 6581 section 9 leaves it to the initiator) no RTR is
 * exchanged and the Reply carries none.
 *
 * Return: 0, or -EOPNOTSUPP: reject the Request.
 */
int e810cm_mpa_respond(const struct e810cm_mpa *req,
		       struct e810cm_neg *local, struct e810cm_mpa *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->type = E810CM_MPA_REPLY;
	rep->rev = req->rev;
	rep->crc = true;
	local->rev = req->rev;
	local->p2p = false;
	local->rtr = 0;
	if (req->markers)
		return -EOPNOTSUPP;
	if (req->rev != 2)
		return 0;

	rep->enhanced = true;
	local->ird = e810cm_min16(local->ird, E810CM_MPA_V2_IRD_ORD_MASK);
	local->ord = e810cm_min16(local->ord, req->ird);
	if (req->p2p) {
		if ((req->rtr & E810CM_RTR_READ) && local->ird && req->ord)
			local->rtr = E810CM_RTR_READ;
		else if (req->rtr & E810CM_RTR_WRITE)
			local->rtr = E810CM_RTR_WRITE;
		else
			return -EOPNOTSUPP;
		local->p2p = true;
	}
	rep->p2p = local->p2p;
	rep->rtr = local->rtr;
	rep->ird = local->ird;
	rep->ord = local->ord;
	return 0;
}

/**
 * e810cm_mpa_complete() - negotiate as the initiator, from the Reply
 * @req: the Request we sent
 * @rep: the Reply received (parsed)
 * @local: in: local IRD and ORD; out: the outcome
 *
 * Return: 0; -ECONNREFUSED for a Reject; -EOPNOTSUPP when the responder
 * wants markers or declines the peer-to-peer model we asked for;
 * -EPROTO for a Reply that does not answer the Request (higher revision,
 * an RTR type not offered, a READ RTR with IRD 0, an ORD above our IRD,
 * peer-to-peer flags we did not ask for).
 */
int e810cm_mpa_complete(const struct e810cm_mpa *req,
			const struct e810cm_mpa *rep,
			struct e810cm_neg *local)
{
	if (rep->reject)
		return -ECONNREFUSED;
	if (rep->rev > req->rev)
		return -EPROTO;
	if (rep->markers)
		return -EOPNOTSUPP;
	local->rev = rep->rev;
	local->p2p = false;
	local->rtr = 0;
	if (rep->rev != 2)
		return 0;

	if (req->p2p) {
		if (!rep->p2p)
			return -EOPNOTSUPP;
		if (!rep->rtr || (rep->rtr & ~req->rtr))
			return -EPROTO;
		if ((rep->rtr & E810CM_RTR_READ) && !rep->ird)
			return -EPROTO;
	} else if (rep->p2p || rep->rtr) {
		return -EPROTO;
	}
	if (rep->ord > local->ird)
		return -EPROTO;
	local->ord = e810cm_min16(local->ord, rep->ird);
	local->p2p = rep->p2p;
	local->rtr = rep->rtr;
	return 0;
}
