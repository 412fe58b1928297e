// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the ILQ (iWARP mode). Until a connection is offloaded, the
 * connection manager runs its TCP handshake and MPA exchange in software;
 * the engine hands it the segments its APBVT and quad hash steer here and
 * sends the segments it builds (docs/irdma.md "iWARP mode").
 *
 * The ILQ is a privileged UDA QP (QP 1, type 2) on its own CQ (CQ 1),
 * created straight in RTS, as upstream irdma_puda_create_rsrc() makes it:
 * its context carries only the rings, their sizes, the buffer size
 * (SNDMSS) the engine may fill, the CQ and PRIVEN, so WQE fragments are
 * physical addresses with STag 0. Every send is signalled; its buffer is
 * reused once the CQE says the engine is done with it. Received segments
 * (IPv4 header at byte 20 or IPv6 at 0, TCP header at byte 40) go to the
 * connection manager (iw.c) from the CQ's CEQ 0 tasklet, and their buffer
 * is posted again.
 *
 * GEN_1 (X722) has no address handles: its ILQ carries whole Ethernet
 * frames both ways (upstream irdma_puda_send(),
 * irdma_gen1_puda_get_tcpip_info()); irdma_ilq_send_gen1() builds them,
 * irdma_ilq_rx_frame() takes them apart.
 *
 * No IEQ is created: the emulated engine parses offloaded streams itself
 * and never steers a segment to it (docs/hw-model.md "iWARP mode").
 */

#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#include <hw/e810_cqp.h>
#include <hw/e810_ctx.h>
#include <hw/e810_gen.h>
#include <hw/e810_regs.h>
#include <hw/e810_uk.h>

#include "iw.h"
#include "qp.h"

/* GEN_1 frames: the largest MAC (802.1Q) and IP (IPv6) headers. */
#define IRDMA_ILQ_FRAME_HDR_MAX	(VLAN_ETH_HLEN + 40)
#define IRDMA_ILQ_TTL		64	/* upstream irdma_form_uda_cm_frame() */

/* CQEs: a send each, a receive with its extension each. */
#define IRDMA_ILQ_CQ_SIZE	(IRDMA_ILQ_SQ_SIZE + 2 * IRDMA_ILQ_RQ_SIZE)
/* qmem layout: SQ, RQ, host context (256-byte aligned), QP shadow area. */
#define IRDMA_ILQ_SQ_BYTES	(IRDMA_ILQ_SQ_SIZE * E810_WQE_QUANTUM)
#define IRDMA_ILQ_RQ_BYTES	(IRDMA_ILQ_RQ_SIZE * E810_WQE_QUANTUM)
#define IRDMA_ILQ_CTX_OFF	(IRDMA_ILQ_SQ_BYTES + IRDMA_ILQ_RQ_BYTES)
#define IRDMA_ILQ_SHADOW_OFF	(IRDMA_ILQ_CTX_OFF + E810_QP_CTX_SIZE)
#define IRDMA_ILQ_QMEM_BYTES	(IRDMA_ILQ_SHADOW_OFF + E810_QP_SHADOW_SIZE)
#define IRDMA_ILQ_CQ_BYTES	(IRDMA_ILQ_CQ_SIZE * E810_CQE_SIZE)

static_assert(IRDMA_ILQ_CTX_OFF % 256 == 0);
static_assert(!(IRDMA_ILQ_SQ_SIZE & (IRDMA_ILQ_SQ_SIZE - 1)) &&
	      !(IRDMA_ILQ_RQ_SIZE & (IRDMA_ILQ_RQ_SIZE - 1)));

/* CREATE_CQ / DESTROY_CQ of the ILQ's CQ, on CEQ 0. */
static int irdma_ilq_cq_cqp(struct irdma_ilq *ilq, u8 op)
{
	struct irdma_pci_f *rf = ilq->rf;
	u64 q[8] = { };
	u64 hdr;

	q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] =
		FIELD_PREP(E810_CQPSQ_CQ_CQSIZE, IRDMA_ILQ_CQ_SIZE);
	q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] =
		FIELD_PREP(E810_CQPSQ_CQ_CQCTX, IRDMA_ILQ_CQ_ID);
	q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = ilq->cqmem.pa +
					       IRDMA_ILQ_CQ_BYTES;
	hdr = irdma_cq_hdr_ids(rf, IRDMA_ILQ_CQ_ID) |
	      irdma_cq_hdr_ceq(rf, 0) | E810_CQPSQ_CQ_CEQIDVALID |
	      E810_CQPSQ_CQ_ENCEQEMASK;
	if (op == E810_CQP_OP_CREATE_CQ) {
		/* upstream irdma_puda_cq_create(): a quarter of the ring */
		q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] =
			FIELD_PREP(E810_CQPSQ_CQ_SHADOW_READ_THRESHOLD,
				   IRDMA_ILQ_CQ_SIZE / 4);
		q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = ilq->cqmem.pa;
		q[E810_QW(E810_CQPSQ_CQ_TPH_OFF)] =
			FIELD_PREP(E810_CQPSQ_VSIIDX, rf->vsi_id);
		hdr |= E810_CQPSQ_CQ_CHKOVERFLOW;
	}
	return irdma_cqp_exec(rf, op, hdr, q, NULL);
}

/* CREATE_QP (straight to RTS) / DESTROY_QP of the ILQ's UDA QP. */
static int irdma_ilq_qp_cqp(struct irdma_ilq *ilq, u8 op)
{
	u64 q[8] = { };
	u64 hdr;

	q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = ilq->qmem.pa + IRDMA_ILQ_CTX_OFF;
	q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = ilq->qmem.pa +
						 IRDMA_ILQ_SHADOW_OFF;
	hdr = FIELD_PREP(E810_CQPSQ_QP_QPID, IRDMA_ILQ_QP_ID) |
	      FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_UDA);
	if (op == E810_CQP_OP_CREATE_QP)
		hdr |= E810_CQPSQ_QP_CQNUMVALID |
		       FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE,
				  E810_QP_STATE_RTS);
	return irdma_cqp_exec(ilq->rf, op, hdr, q, NULL);
}

/* The PUDA host context (upstream irdma_puda_qp_setctx()). */
static void irdma_ilq_ctx(struct irdma_ilq *ilq)
{
	struct irdma_dma ctx = {
		.va = ilq->qmem.va + IRDMA_ILQ_CTX_OFF,
		.pa = ilq->qmem.pa + IRDMA_ILQ_CTX_OFF,
		.size = E810_QP_CTX_SIZE,
	};

	memset(ctx.va, 0, E810_QP_CTX_SIZE);
	irdma_set64(&ctx, E810_QPC_SQADDR_OFF, ilq->qmem.pa);
	irdma_set64(&ctx, E810_QPC_RQADDR_OFF,
		    ilq->qmem.pa + IRDMA_ILQ_SQ_BYTES);
	irdma_set64(&ctx, E810_QPC_SIZES_OFF,
		    FIELD_PREP(E810_QPC_RQSIZE,
			       irdma_qp_wq_size_code(IRDMA_ILQ_RQ_SIZE)) |
		    FIELD_PREP(E810_QPC_SQSIZE,
			       irdma_qp_wq_size_code(IRDMA_ILQ_SQ_SIZE)));
	/* The largest segment the engine may put into a receive buffer. */
	irdma_set64(&ctx, E810_QPC_MSS_OFF,
		    FIELD_PREP(E810_QPC_SNDMSS, IRDMA_ILQ_BUF_SIZE));
	irdma_set64(&ctx, E810_QPC_CQ_OFF,
		    FIELD_PREP(E810_QPC_TXCQNUM, IRDMA_ILQ_CQ_ID) |
		    FIELD_PREP(E810_QPC_RXCQNUM, IRDMA_ILQ_CQ_ID));
	irdma_set64(&ctx, E810_QPC_FLAGS_OFF, E810_QPC_PRIVEN);
	irdma_set64(&ctx, E810_QPC_COMPL_CTX_OFF, IRDMA_ILQ_QP_ID);
	irdma_set64(&ctx, E810_QPC_QS_OFF,
		    FIELD_PREP(E810_QPC_QSHANDLE, ilq->qs_handle));
}

/* Posts receive buffer @buf; caller holds ilq->lock or owns the ILQ. */
static int irdma_ilq_post_rx(struct irdma_ilq *ilq, u32 buf)
{
	struct e810u_sge sge = {
		.addr = ilq->rxbuf.pa + (u64)buf * IRDMA_ILQ_BUF_SIZE,
		.len = IRDMA_ILQ_BUF_SIZE,
		.lkey = 0,
	};

	return e810u_post_recv(&ilq->ring, buf, &sge, 1);
}

/* Arms the CQ for the next completion; caller holds ilq->lock. */
static void irdma_ilq_arm(struct irdma_ilq *ilq)
{
	struct irdma_dma sh = {
		.va = ilq->cqmem.va + IRDMA_ILQ_CQ_BYTES,
	};
	u64 arm = irdma_get64(&sh, E810_CQ_DBSA_ARM_OFF);

	arm = FIELD_PREP(E810_CQ_DBSA_ARM_SEQ_NUM,
			 FIELD_GET(E810_CQ_DBSA_ARM_SEQ_NUM, arm) + 1) |
	      E810_CQ_DBSA_ARM_NEXT_SE | E810_CQ_DBSA_ARM_NEXT;
	irdma_set64(&sh, E810_CQ_DBSA_ARM_OFF, arm);
	/* The shadow write must be visible before the doorbell. */
	wmb();
	irdma_wr32(ilq->rf, IRDMA_REG(ilq->rf, cqarm),
		   FIELD_PREP(E810_CQARM_CQID, IRDMA_ILQ_CQ_ID));
}

/*
 * GEN_1: the ILQ receives whole Ethernet frames (upstream
 * irdma_gen1_puda_get_tcpip_info()). Parses the frame's MAC (with an
 * optional 802.1Q tag) and IP headers and lays the segment out as GEN_2's
 * engine delivers it (IPv4 header at 20 or IPv6 at 0, TCP at
 * IRDMA_ILQ_TCP_OFF) in @ilq->rx_frame, for the connection manager.
 * Returns false for a frame that is no TCP segment over IPv4 without
 * options or IPv6 without extension headers.
 */
static bool irdma_ilq_rx_frame(struct irdma_ilq *ilq, const u8 *f, u32 len,
			       struct irdma_ilq_rx *rx)
{
	u32 mac_len = ETH_HLEN, ip_len, l4;
	u16 proto;

	if (len < ETH_HLEN)
		return false;
	proto = get_unaligned_be16(f + 12);
	if (proto == ETH_P_8021Q) {
		if (len < VLAN_ETH_HLEN)
			return false;
		rx->vlan_valid = true;
		rx->vlan = get_unaligned_be16(f + ETH_HLEN);
		proto = get_unaligned_be16(f + ETH_HLEN + 2);
		mac_len = VLAN_ETH_HLEN;
	}
	if (proto == ETH_P_IP) {
		ip_len = 20;
		if (len < mac_len + ip_len || f[mac_len] != 0x45 ||
		    f[mac_len + 9] != IPPROTO_TCP)
			return false;
		rx->ipv4 = true;
	} else if (proto == ETH_P_IPV6) {
		ip_len = 40;
		if (len < mac_len + ip_len || (f[mac_len] >> 4) != 6 ||
		    f[mac_len + 6] != IPPROTO_TCP)
			return false;
	} else {
		return false;
	}
	l4 = len - mac_len - ip_len;
	if (l4 < 20 || IRDMA_ILQ_TCP_OFF + l4 > IRDMA_ILQ_BUF_SIZE)
		return false;
	memset(ilq->rx_frame, 0, IRDMA_ILQ_TCP_OFF);
	memcpy(ilq->rx_frame + IRDMA_ILQ_TCP_OFF - ip_len, f + mac_len,
	       ip_len + l4);
	rx->buf = ilq->rx_frame;
	rx->len = IRDMA_ILQ_TCP_OFF + l4;
	rx->smac_valid = true;
	ether_addr_copy(rx->smac, f + ETH_ALEN);
	return true;
}

/* Hands one received segment to the connection manager, then re-posts. */
static void irdma_ilq_rx_one(struct irdma_ilq *ilq,
			     const struct e810u_cqe *c, u32 buf)
{
	struct irdma_ilq_rx rx = { };

	if (irdma_is_gen1(ilq->rf)) {
		if (c->status != E810U_OK || c->bytes > IRDMA_ILQ_BUF_SIZE ||
		    !irdma_ilq_rx_frame(ilq, ilq->rxbuf.va +
					(size_t)buf * IRDMA_ILQ_BUF_SIZE,
					c->bytes, &rx)) {
			ilq->stats.rx_errors++;
			return;
		}
		ilq->stats.rx++;
		irdma_iw_rx(ilq->rf, &rx);
		return;
	}
	if (c->status != E810U_OK || c->bytes <= IRDMA_ILQ_TCP_OFF ||
	    c->bytes > IRDMA_ILQ_BUF_SIZE) {
		ilq->stats.rx_errors++;
		return;
	}
	rx.buf = ilq->rxbuf.va + (size_t)buf * IRDMA_ILQ_BUF_SIZE;
	rx.len = c->bytes;
	rx.ipv4 = c->ipv4;
	rx.smac_valid = c->smac_valid;
	memcpy(rx.smac, c->smac, ETH_ALEN);
	rx.vlan_valid = c->vlan_valid;
	rx.vlan = c->vlan;
	ilq->stats.rx++;
	irdma_iw_rx(ilq->rf, &rx);
}

/* Drains the CQ; caller holds ilq->lock. Returns the CQEs consumed. */
static u32 irdma_ilq_poll(struct irdma_ilq *ilq)
{
	struct irdma_dma sh = {
		.va = ilq->cqmem.va + IRDMA_ILQ_CQ_BYTES,
	};
	struct e810u_cqe_raw raw;
	struct e810u_cqe c;
	u32 n = 0, idx;

	for (;;) {
		/*
		 * GEN_1 has no extended CQEs: its receive CQEs' b50 is
		 * VLAN_TAG_VALID (upstream irdma_puda_poll_info()), which
		 * the ring layer would read as GEN_2's EXTCQE. The frame
		 * itself says whether it is tagged.
		 */
		if (irdma_is_gen1(ilq->rf)) {
			u8 *cqe = ilq->cq.buf + (size_t)ilq->cq.head *
				  E810_CQE_SIZE;
			u64 hdr = e810u_get64(cqe, E810_CQE_HDR_OFF);

			if (!!(hdr & E810_CQE_VALID) == ilq->cq.pol &&
			    (hdr & E810_GEN1_CQE_VLAN_TAG_VALID)) {
				dma_rmb();
				e810u_put64(cqe, E810_CQE_HDR_OFF,
					    hdr & ~E810_GEN1_CQE_VLAN_TAG_VALID);
			}
		}
		if (e810u_cqe_peek(&ilq->cq, &raw))
			break;
		e810u_cqe_decode(&raw, true, &c);
		idx = FIELD_GET(E810_CQE_WQEIDX, raw.hdr);
		if (c.qp_id != IRDMA_ILQ_QP_ID) {
			ilq->stats.rx_errors++;
		} else if (c.sq) {
			if (c.status != E810U_OK)
				ilq->stats.tx_errors++;
			if (idx < IRDMA_ILQ_SQ_SIZE)
				clear_bit(idx, ilq->sq_busy);
		} else if (!e810u_rq_complete(&ilq->ring, idx, &c)) {
			irdma_ilq_rx_one(ilq, &c, (u32)c.wr_id);
			/* The buffer goes back; the RQ has room for it. */
			irdma_ilq_post_rx(ilq, (u32)c.wr_id);
		} else {
			ilq->stats.rx_errors++;
		}
		e810u_cq_ring_step(&ilq->cq, raw.ext != NULL);
		irdma_set64(&sh, E810_CQ_DBSA_HEAD_OFF,
			    FIELD_PREP(E810_CQ_DBSA_CQEIDX, ilq->cq.head));
		n++;
	}
	return n;
}

/**
 * irdma_ilq_ceq_event() - a CEQE for CQ @cq_id: the ILQ's?
 * @rf: per-function state
 * @cq_id: the CQ context of the CEQE
 *
 * Drains the ILQ's CQ and re-arms it (then drains once more: a CQE
 * written between the last poll and the arm raises no event).
 *
 * Context: Softirq (CEQ 0's tasklet).
 * Return: true if @cq_id is the ILQ's CQ (handled, acknowledged).
 */
bool irdma_ilq_ceq_event(struct irdma_pci_f *rf, u32 cq_id)
{
	struct irdma_ilq *ilq = READ_ONCE(rf->ilq);

	if (!ilq || cq_id != IRDMA_ILQ_CQ_ID)
		return false;
	spin_lock(&ilq->lock);
	if (ilq->created) {
		irdma_ilq_poll(ilq);
		irdma_ilq_arm(ilq);
		irdma_ilq_poll(ilq);
	}
	spin_unlock(&ilq->lock);
	irdma_wr32(rf, IRDMA_REG(rf, cqack), FIELD_PREP(E810_CQACK_CQID, cq_id));
	return true;
}

/**
 * irdma_ilq_send() - send one TCP segment the connection manager built
 * @rf: per-function state
 * @ah_id: the address handle (L2/L3 of the segment)
 * @seg: TCP header, options and payload; the checksum is left to the engine
 * @len: bytes in @seg (at most %IRDMA_ILQ_BUF_SIZE)
 * @tcp_hlen: TCP header length with options, a multiple of 4
 *
 * Context: Any context.
 * Return: 0, -ENOBUFS without a free buffer, -EINVAL for a bad length,
 * -ENODEV without an ILQ.
 */
int irdma_ilq_send(struct irdma_pci_f *rf, u32 ah_id, const void *seg,
		   u32 len, u32 tcp_hlen)
{
	struct irdma_ilq *ilq = rf->ilq;
	struct e810u_sge sge = { };
	unsigned long flags;
	u8 *wqe, *buf;
	u32 idx;

	if (!ilq)
		return -ENODEV;
	if (len > IRDMA_ILQ_BUF_SIZE || tcp_hlen < 20 || tcp_hlen > 60 ||
	    tcp_hlen % 4 || tcp_hlen > len)
		return -EINVAL;
	spin_lock_irqsave(&ilq->lock, flags);
	idx = ilq->sq_head;
	if (!ilq->created || test_bit(idx, ilq->sq_busy)) {
		ilq->stats.tx_full++;
		spin_unlock_irqrestore(&ilq->lock, flags);
		return -ENOBUFS;
	}
	if (!idx)
		ilq->sq_pol = !ilq->sq_pol;
	buf = ilq->txbuf.va + (size_t)idx * IRDMA_ILQ_BUF_SIZE;
	memcpy(buf, seg, len);
	sge.addr = ilq->txbuf.pa + (u64)idx * IRDMA_ILQ_BUF_SIZE;
	sge.len = len;
	wqe = ilq->qmem.va + (size_t)idx * E810_WQE_QUANTUM;
	e810u_put_frags(ilq->ring.geom, wqe, &sge, 1, false, ilq->sq_pol);
	e810u_put64(wqe, E810_WQE_OPQ_OFF, 0);
	set_bit(idx, ilq->sq_busy);
	ilq->sq_head = (idx + 1) % IRDMA_ILQ_SQ_SIZE;
	/* The WQE body before its valid bit. */
	dma_wmb();
	e810u_put64(wqe, E810_WQE_HDR_OFF,
		    FIELD_PREP(E810_WQE_AHID, ah_id) |
		    FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
		    FIELD_PREP(E810_WQE_L4LEN, tcp_hlen / 4) |
		    E810_WQE_SIGCOMPL |
		    FIELD_PREP(E810_WQE_VALID, ilq->sq_pol));
	/* The WQE must be visible before the doorbell. */
	wmb();
	irdma_wr32(rf, IRDMA_REG(rf, wqealloc), IRDMA_ILQ_QP_ID);
	ilq->stats.tx++;
	spin_unlock_irqrestore(&ilq->lock, flags);
	return 0;
}

/* GEN_1: the MAC and IP headers before @seg (irdma_form_uda_cm_frame()). */
static u32 irdma_ilq_frame_hdr(struct irdma_pci_f *rf,
			       const struct irdma_ilq_l2 *l2, u8 *f, u32 len,
			       u32 *mac_len)
{
	u32 off = 2 * ETH_ALEN;
	unsigned int i;

	ether_addr_copy(f, l2->dmac);
	ether_addr_copy(f + ETH_ALEN, rf->netdev->dev_addr);
	if (l2->vlan != 0xffff) {
		put_unaligned_be16(ETH_P_8021Q, f + off);
		put_unaligned_be16(l2->vlan, f + off + 2);
		off += VLAN_HLEN;
	}
	put_unaligned_be16(l2->ipv4 ? ETH_P_IP : ETH_P_IPV6, f + off);
	off += 2;
	*mac_len = off;
	if (l2->ipv4) {
		f[off] = 0x45;
		f[off + 1] = 0;
		put_unaligned_be16(20 + len, f + off + 2);
		put_unaligned_be16(l2->ip_id, f + off + 4);
		put_unaligned_be16(IP_DF, f + off + 6);
		f[off + 8] = IRDMA_ILQ_TTL;
		f[off + 9] = IPPROTO_TCP;
		put_unaligned_be16(0, f + off + 10);	/* the device's */
		put_unaligned_be32(l2->lip[0], f + off + 12);
		put_unaligned_be32(l2->rip[0], f + off + 16);
		return off + 20;
	}
	put_unaligned_be32(6 << 28, f + off);
	put_unaligned_be16(len, f + off + 4);
	f[off + 6] = IPPROTO_TCP;
	f[off + 7] = IRDMA_ILQ_TTL;
	for (i = 0; i < 4; i++) {
		put_unaligned_be32(l2->lip[i], f + off + 8 + 4 * i);
		put_unaligned_be32(l2->rip[i], f + off + 24 + 4 * i);
	}
	return off + 40;
}

/**
 * irdma_ilq_send_gen1() - GEN_1: send one TCP segment as a whole frame
 * @rf: per-function state
 * @l2: the frame's addressing
 * @seg: TCP header, options and payload; the checksum is left to the engine
 * @len: bytes in @seg
 * @tcp_hlen: TCP header length with options, a multiple of 4
 *
 * GEN_1 has no address handles: the driver builds the Ethernet frame and
 * the send WQE says where its headers are (upstream irdma_puda_send():
 * MACLEN in 2-byte words, IPLEN in dwords, L4 type TCP, IIPT IPv4 with
 * its header checksum or IPv6, L4LEN); the engine inserts the checksums.
 *
 * Context: Any context.
 * Return: 0, -ENOBUFS without a free buffer, -EINVAL for a bad length,
 * -ENODEV without an ILQ.
 */
int irdma_ilq_send_gen1(struct irdma_pci_f *rf, const struct irdma_ilq_l2 *l2,
			const void *seg, u32 len, u32 tcp_hlen)
{
	struct irdma_ilq *ilq = rf->ilq;
	struct e810u_sge sge = { };
	u32 idx, hlen, mac_len;
	unsigned long flags;
	u8 *wqe, *buf;

	if (!ilq)
		return -ENODEV;
	if (len + IRDMA_ILQ_FRAME_HDR_MAX > IRDMA_ILQ_BUF_SIZE ||
	    tcp_hlen < 20 || tcp_hlen > 60 || tcp_hlen % 4 || tcp_hlen > len)
		return -EINVAL;
	spin_lock_irqsave(&ilq->lock, flags);
	idx = ilq->sq_head;
	if (!ilq->created || test_bit(idx, ilq->sq_busy)) {
		ilq->stats.tx_full++;
		spin_unlock_irqrestore(&ilq->lock, flags);
		return -ENOBUFS;
	}
	if (!idx)
		ilq->sq_pol = !ilq->sq_pol;
	buf = ilq->txbuf.va + (size_t)idx * IRDMA_ILQ_BUF_SIZE;
	hlen = irdma_ilq_frame_hdr(rf, l2, buf, len, &mac_len);
	memcpy(buf + hlen, seg, len);
	sge.addr = ilq->txbuf.pa + (u64)idx * IRDMA_ILQ_BUF_SIZE;
	sge.len = hlen + len;
	wqe = ilq->qmem.va + (size_t)idx * E810_WQE_QUANTUM;
	e810u_put_frags(ilq->ring.geom, wqe, &sge, 1, false, ilq->sq_pol);
	e810u_put64(wqe, E810_WQE_OPQ_OFF,
		    FIELD_PREP(E810_GEN1_UDA_MACLEN, mac_len / 2) |
		    FIELD_PREP(E810_GEN1_UDA_IPLEN, (hlen - mac_len) / 4) |
		    FIELD_PREP(E810_GEN1_UDA_L4T, E810_GEN1_UDA_L4T_TCP) |
		    FIELD_PREP(E810_GEN1_UDA_IIPT,
			       l2->ipv4 ? E810_GEN1_UDA_IIPT_IPV4_CSUM :
					  E810_GEN1_UDA_IIPT_IPV6) |
		    FIELD_PREP(E810_GEN1_UDA_L4LEN, tcp_hlen / 4));
	set_bit(idx, ilq->sq_busy);
	ilq->sq_head = (idx + 1) % IRDMA_ILQ_SQ_SIZE;
	/* The WQE body before its valid bit. */
	dma_wmb();
	e810u_put64(wqe, E810_WQE_HDR_OFF,
		    FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
		    E810_WQE_SIGCOMPL |
		    (l2->loopback ? E810_GEN1_UDA_DOLOOPBACK : 0) |
		    FIELD_PREP(E810_WQE_VALID, ilq->sq_pol));
	/* The WQE must be visible before the doorbell. */
	wmb();
	irdma_wr32(rf, IRDMA_REG(rf, wqealloc), IRDMA_ILQ_QP_ID);
	ilq->stats.tx++;
	spin_unlock_irqrestore(&ilq->lock, flags);
	return 0;
}

static void irdma_ilq_free(struct irdma_ilq *ilq)
{
	struct irdma_pci_f *rf = ilq->rf;

	irdma_dma_free(rf, &ilq->txbuf);
	irdma_dma_free(rf, &ilq->rxbuf);
	irdma_dma_free(rf, &ilq->cqmem);
	irdma_dma_free(rf, &ilq->qmem);
	kfree(ilq->ring.rq_wrid);
	kfree(ilq->rx_frame);
	kfree(ilq);
}

/**
 * irdma_ilq_create() - create the ILQ's CQ and QP, post its buffers
 * @rf: per-function state, CEQ 0 up
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_ilq_create(struct irdma_pci_f *rf)
{
	struct irdma_ilq *ilq;
	u32 i;
	int err;

	ilq = kzalloc(sizeof(*ilq), GFP_KERNEL);
	if (!ilq)
		return -ENOMEM;
	ilq->rf = rf;
	spin_lock_init(&ilq->lock);
	ilq->ring.rq_wrid = kcalloc(IRDMA_ILQ_RQ_SIZE,
				    sizeof(*ilq->ring.rq_wrid), GFP_KERNEL);
	if (irdma_is_gen1(rf))
		ilq->rx_frame = kmalloc(IRDMA_ILQ_BUF_SIZE, GFP_KERNEL);
	if (!ilq->ring.rq_wrid || (irdma_is_gen1(rf) && !ilq->rx_frame)) {
		err = -ENOMEM;
		goto err_free;
	}
	err = irdma_dma_alloc(rf, &ilq->qmem, IRDMA_ILQ_QMEM_BYTES,
			      GFP_KERNEL);
	if (!err)
		err = irdma_dma_alloc(rf, &ilq->cqmem,
				      IRDMA_ILQ_CQ_BYTES + E810_CQ_SHADOW_SIZE,
				      GFP_KERNEL);
	if (!err)
		err = irdma_dma_alloc(rf, &ilq->rxbuf,
				      IRDMA_ILQ_RQ_SIZE * IRDMA_ILQ_BUF_SIZE,
				      GFP_KERNEL);
	if (!err)
		err = irdma_dma_alloc(rf, &ilq->txbuf,
				      IRDMA_ILQ_SQ_SIZE * IRDMA_ILQ_BUF_SIZE,
				      GFP_KERNEL);
	if (err)
		goto err_free;

	ilq->ring.geom = irdma_geom(rf);
	ilq->ring.rq = ilq->qmem.va + IRDMA_ILQ_SQ_BYTES;
	ilq->ring.rq_size = IRDMA_ILQ_RQ_SIZE;
	ilq->ring.rq_shift = 0;
	ilq->ring.max_rq_frags = 1;
	ilq->ring.priv = true;
	ilq->ring.qp_id = IRDMA_ILQ_QP_ID;
	e810u_qp_reset(&ilq->ring);
	ilq->sq_pol = 0;	/* flips to 1 when quantum 0 is used */
	ilq->cq.buf = ilq->cqmem.va;
	ilq->cq.size = IRDMA_ILQ_CQ_SIZE;
	ilq->cq.head = 0;
	ilq->cq.pol = 1;

	err = irdma_ws_ref(rf, 0, &ilq->ws_tc, &ilq->qs_handle);
	if (err)
		goto err_free;
	err = irdma_ilq_cq_cqp(ilq, E810_CQP_OP_CREATE_CQ);
	if (err)
		goto err_ws;
	ilq->cq_created = true;
	irdma_ilq_ctx(ilq);
	/* The RQ holds one WQE less than its size (head == tail: empty). */
	for (i = 0; i < IRDMA_ILQ_RQ_SIZE - 1; i++)
		irdma_ilq_post_rx(ilq, i);
	err = irdma_ilq_qp_cqp(ilq, E810_CQP_OP_CREATE_QP);
	if (err)
		goto err_cq;
	ilq->created = true;
	WRITE_ONCE(rf->ilq, ilq);
	spin_lock_bh(&ilq->lock);
	irdma_ilq_arm(ilq);
	spin_unlock_bh(&ilq->lock);
	dev_dbg(irdma_rf_to_dev(rf), "ILQ: QP %u, CQ %u, QS handle %u\n",
		IRDMA_ILQ_QP_ID, IRDMA_ILQ_CQ_ID, ilq->qs_handle);
	return 0;

err_cq:
	irdma_ilq_cq_cqp(ilq, E810_CQP_OP_DESTROY_CQ);
err_ws:
	irdma_ws_unref(rf, ilq->ws_tc);
err_free:
	irdma_ilq_free(ilq);
	return err;
}

/**
 * irdma_ilq_destroy() - undo irdma_ilq_create()
 * @rf: per-function state
 *
 * The buffers stay with the quarantine when the device could still reach
 * them (irdma_dma_free()).
 *
 * Context: Process context, sleeps.
 */
void irdma_ilq_destroy(struct irdma_pci_f *rf)
{
	struct irdma_ilq *ilq = rf->ilq;

	if (!ilq)
		return;
	spin_lock_bh(&ilq->lock);
	ilq->created = false;
	spin_unlock_bh(&ilq->lock);
	if (!rf->resetting) {
		irdma_ilq_qp_cqp(ilq, E810_CQP_OP_DESTROY_QP);
		irdma_ilq_cq_cqp(ilq, E810_CQP_OP_DESTROY_CQ);
	}
	/* CEQ 0's tasklet (softirq: an RCU reader) may be looking at it. */
	WRITE_ONCE(rf->ilq, NULL);
	synchronize_rcu();
	irdma_ws_unref(rf, ilq->ws_tc);
	irdma_ilq_free(ilq);
}

/**
 * irdma_ilq_show() - the ILQ's counters for debugfs "iwarp"
 * @m: the seq_file
 * @rf: per-function state
 */
void irdma_ilq_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_ilq *ilq = rf->ilq;
	struct irdma_ilq_stats st;

	if (!ilq) {
		seq_puts(m, "ilq none\n");
		return;
	}
	spin_lock_bh(&ilq->lock);
	st = ilq->stats;
	spin_unlock_bh(&ilq->lock);
	seq_printf(m, "ilq_qp %u\nilq_cq %u\nilq_qs_handle %u\n",
		   IRDMA_ILQ_QP_ID, IRDMA_ILQ_CQ_ID, ilq->qs_handle);
	seq_printf(m, "ilq_rx %llu\nilq_rx_errors %llu\nilq_tx %llu\nilq_tx_full %llu\nilq_tx_errors %llu\n",
		   st.rx, st.rx_errors, st.tx, st.tx_full, st.tx_errors);
}
