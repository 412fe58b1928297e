// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the LAN queue pair (PF queue 0) and its NAPI context.
 *
 * Tx: one 16-byte data descriptor per (linear) packet with EOP|RS; the
 * device writes DTYPE DESC_DONE back into it (docs/hw-reference-lan.md 3.12,
 * 4.3, 4.4). Rx: 32-byte descriptors, flex NIC write-back (RXDID 2), one buffer
 * big enough for a whole frame at the current MTU (hw-reference-lan 4.1, 4.2,
 * 4.6).
 */

#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/skbuff.h>

#include <hw/e810_regs.h>

#include "ice_lite.h"

/* QRX_CTRL.QENA_STAT follows QENA_REQ within this time. */
#define ICE_LITE_QENA_POLL_US		20
#define ICE_LITE_QENA_TIMEOUT_US	(100 * USEC_PER_MSEC)

/* The hardware ignores the low 3 bits of QRX_TAIL. */
#define ICE_LITE_RX_TAIL_MASK		(~7U)

/* Re-arm value of a vector: enable, no ITR update (no CLEARPBA). */
#define ICE_LITE_DYN_CTL_REARM		(E810_GLINT_DYN_CTL_INTENA | \
					 FIELD_PREP(E810_GLINT_DYN_CTL_ITR_INDX, \
						    E810_ITR_IDX_NONE))

/**
 * ice_lite_rx_buf_len() - Rx buffer size for an MTU
 * @mtu: the MTU
 *
 * A whole frame with two VLAN tags, in the 128-byte units of the
 * context's dbuf field, so that no frame ever spans two buffers.
 *
 * Return: the size in bytes.
 */
static u32 ice_lite_rx_buf_len(unsigned int mtu)
{
	return ALIGN(mtu + ETH_HLEN + 2 * VLAN_HLEN,
		     BIT(E810_RLAN_DBUF_SHIFT));
}

/**
 * ice_lite_tx_unused() - free Tx descriptors (one is always kept empty)
 * @ring: the ring
 *
 * Return: the number of descriptors start_xmit may still fill.
 */
static u16 ice_lite_tx_unused(const struct ice_lite_tx_ring *ring)
{
	u16 ntc = READ_ONCE(ring->next_to_clean);
	u16 ntu = READ_ONCE(ring->next_to_use);

	return (ntc > ntu ? 0 : ring->count) + ntc - ntu - 1;
}

/**
 * ice_lite_tx_maybe_stop() - stop the stack's queue when the ring is full
 * @ring: the ring, next_to_use already advanced
 * @txq: the stack's queue
 *
 * Rechecks after stopping: NAPI may have freed descriptors meanwhile.
 */
static void ice_lite_tx_maybe_stop(struct ice_lite_tx_ring *ring,
				   struct netdev_queue *txq)
{
	if (likely(ice_lite_tx_unused(ring)))
		return;
	netif_tx_stop_queue(txq);
	/* Pairs with the barrier in ice_lite_tx_maybe_wake(). */
	smp_mb();
	if (ice_lite_tx_unused(ring) >= ICE_LITE_TX_WAKE_THRESH)
		netif_tx_start_queue(txq);
}

/**
 * ice_lite_tx_maybe_wake() - restart a stopped queue once there is room
 * @ring: the ring, next_to_clean already advanced
 * @txq: the stack's queue
 */
static void ice_lite_tx_maybe_wake(struct ice_lite_tx_ring *ring,
				   struct netdev_queue *txq)
{
	/* Make next_to_clean visible before looking at the stopped bit. */
	smp_mb();
	if (unlikely(netif_tx_queue_stopped(txq)) &&
	    ice_lite_tx_unused(ring) >= ICE_LITE_TX_WAKE_THRESH)
		netif_tx_wake_queue(txq);
}

/**
 * ice_lite_rx_unused() - Rx slots without a buffer
 * @ring: the ring
 *
 * Return: the number of slots that can be given a buffer.
 */
static u16 ice_lite_rx_unused(const struct ice_lite_rx_ring *ring)
{
	u16 ntc = ring->next_to_clean, ntu = ring->next_to_use;

	return (ntc > ntu ? 0 : ring->count) + ntc - ntu - 1;
}

/* ---- ring memory -------------------------------------------------------- */

/**
 * ice_lite_free_rings() - free both rings and whatever they still hold
 * @pf: the PF, with the device no longer using the rings
 */
static void ice_lite_free_rings(struct ice_lite_pf *pf)
{
	struct ice_lite_tx_ring *tx = &pf->tx_ring;
	struct ice_lite_rx_ring *rx = &pf->rx_ring;
	struct device *dev = ice_lite_pf_to_dev(pf);
	unsigned int i;

	if (tx->bufs) {
		for (i = 0; i < tx->count; i++) {
			if (!tx->bufs[i].skb)
				continue;
			dma_unmap_single(dev, tx->bufs[i].dma, tx->bufs[i].len,
					 DMA_TO_DEVICE);
			dev_kfree_skb_any(tx->bufs[i].skb);
		}
		netdev_tx_reset_queue(netdev_get_tx_queue(pf->netdev, 0));
	}
	kfree(tx->bufs);
	tx->bufs = NULL;
	if (tx->desc)
		dma_free_coherent(dev, tx->count * sizeof(*tx->desc), tx->desc,
				  tx->dma);
	tx->desc = NULL;

	if (rx->bufs) {
		for (i = 0; i < rx->count; i++) {
			if (!rx->bufs[i].skb)
				continue;
			dma_unmap_single(dev, rx->bufs[i].dma, rx->buf_len,
					 DMA_FROM_DEVICE);
			dev_kfree_skb_any(rx->bufs[i].skb);
		}
	}
	kfree(rx->bufs);
	rx->bufs = NULL;
	if (rx->desc)
		dma_free_coherent(dev, rx->count * sizeof(*rx->desc), rx->desc,
				  rx->dma);
	rx->desc = NULL;
}

/**
 * ice_lite_alloc_rings() - allocate both rings for the current MTU
 * @pf: the PF
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
static int ice_lite_alloc_rings(struct ice_lite_pf *pf)
{
	struct ice_lite_tx_ring *tx = &pf->tx_ring;
	struct ice_lite_rx_ring *rx = &pf->rx_ring;
	struct device *dev = ice_lite_pf_to_dev(pf);

	*tx = (struct ice_lite_tx_ring) { .count = ICE_LITE_TX_DESC };
	*rx = (struct ice_lite_rx_ring) {
		.count = ICE_LITE_RX_DESC,
		.buf_len = ice_lite_rx_buf_len(pf->netdev->mtu),
	};

	tx->desc = dma_alloc_coherent(dev, tx->count * sizeof(*tx->desc),
				      &tx->dma, GFP_KERNEL);
	tx->bufs = kcalloc(tx->count, sizeof(*tx->bufs), GFP_KERNEL);
	rx->desc = dma_alloc_coherent(dev, rx->count * sizeof(*rx->desc),
				      &rx->dma, GFP_KERNEL);
	rx->bufs = kcalloc(rx->count, sizeof(*rx->bufs), GFP_KERNEL);
	if (!tx->desc || !tx->bufs || !rx->desc || !rx->bufs) {
		ice_lite_free_rings(pf);
		return -ENOMEM;
	}
	return 0;
}

/* ---- Tx ---------------------------------------------------------------- */

/**
 * ice_lite_tx_start() - add Tx queue 0 to the device
 * @pf: the PF, with the ring allocated
 *
 * Builds the Tx queue context (hw-reference-lan 3.12), adds the queue with
 * 0x0C30 and routes its cause to the LAN vector with ITR 1.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_tx_start(struct ice_lite_pf *pf)
{
	struct ice_lite_tx_ring *ring = &pf->tx_ring;
	u8 ctx[E810_TXQ_CTX_SIZE] = {};
	int err;

	e810_ctx_set(ctx, E810_TLAN_CTX_BASE, ring->dma >> E810_TLAN_BASE_SHIFT);
	e810_ctx_set(ctx, E810_TLAN_CTX_PORT_NUM, pf->lport);
	e810_ctx_set(ctx, E810_TLAN_CTX_PF_NUM, pf->pf_id);
	e810_ctx_set(ctx, E810_TLAN_CTX_VMVF_NUM, 0);
	e810_ctx_set(ctx, E810_TLAN_CTX_VMVF_TYPE, E810_TLAN_VMVF_TYPE_PF);
	e810_ctx_set(ctx, E810_TLAN_CTX_SRC_VSI, pf->vsi_num);
	e810_ctx_set(ctx, E810_TLAN_CTX_TSYN_ENA, 1);
	e810_ctx_set(ctx, E810_TLAN_CTX_WB_MODE, 0);
	e810_ctx_set(ctx, E810_TLAN_CTX_QLEN, ring->count);
	e810_ctx_set(ctx, E810_TLAN_CTX_TSO_ENA, 1);
	e810_ctx_set(ctx, E810_TLAN_CTX_TSO_QNUM,
		     pf->caps.txq_first + ICE_LITE_LAN_Q);
	e810_ctx_set(ctx, E810_TLAN_CTX_LEGACY_INT, 1);

	err = ice_lite_add_txq(pf, ICE_LITE_LAN_Q, ctx, &ring->teid);
	if (err)
		return err;
	ring->added = true;

	ice_lite_wr32(pf, E810_QINT_TQCTL(ICE_LITE_LAN_Q),
		      FIELD_PREP(E810_INT_CTL_MSIX_INDX, ICE_LITE_MSIX_LAN) |
		      FIELD_PREP(E810_INT_CTL_ITR_INDX, E810_ITR_IDX_1) |
		      E810_INT_CTL_CAUSE_ENA);
	return 0;
}

/**
 * ice_lite_tx_stop() - remove Tx queue 0 from the device
 * @pf: the PF
 *
 * Context: Process context.
 */
static void ice_lite_tx_stop(struct ice_lite_pf *pf)
{
	ice_lite_wr32(pf, E810_QINT_TQCTL(ICE_LITE_LAN_Q), 0);
	if (!pf->tx_ring.added)
		return;
	/* On failure the queue is gone anyway once the PF is reset. */
	ice_lite_dis_txq(pf, ICE_LITE_LAN_Q);
	pf->tx_ring.added = false;
}

/**
 * ice_lite_tx_drop() - drop a packet start_xmit cannot send
 * @pf: the PF
 * @skb: the packet
 *
 * Return: NETDEV_TX_OK.
 */
static netdev_tx_t ice_lite_tx_drop(struct ice_lite_pf *pf,
				    struct sk_buff *skb)
{
	dev_kfree_skb_any(skb);
	atomic64_inc(&pf->tx_dropped);
	return NETDEV_TX_OK;
}

/**
 * ice_lite_start_xmit() - ndo_start_xmit: queue one packet
 * @skb: the packet
 * @netdev: our netdev
 *
 * Context: Softirq or process context, Tx queue lock held.
 * Return: NETDEV_TX_OK, or NETDEV_TX_BUSY if the ring is (unexpectedly)
 * full.
 */
netdev_tx_t ice_lite_start_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	struct ice_lite_pf *pf = ice_lite_netdev_to_pf(netdev);
	struct netdev_queue *txq = netdev_get_tx_queue(netdev, 0);
	struct ice_lite_tx_ring *ring = &pf->tx_ring;
	struct ice_lite_tx_buf *buf;
	struct e810_tx_desc *desc;
	unsigned int len;
	dma_addr_t dma;
	u16 i;

	/* Rings may be gone while the netdev still runs (a failed restart). */
	if (unlikely(!test_bit(ICE_LITE_STATE_UP, pf->state)))
		return ice_lite_tx_drop(pf, skb);
	if (unlikely(!ice_lite_tx_unused(ring))) {
		netif_tx_stop_queue(txq);
		return NETDEV_TX_BUSY;
	}

	if (skb_put_padto(skb, ETH_ZLEN)) {
		atomic64_inc(&pf->tx_dropped);	/* skb already freed */
		return NETDEV_TX_OK;
	}
	if (skb_linearize(skb) || skb->len > E810_TX_MAX_BUF_SZ)
		return ice_lite_tx_drop(pf, skb);

	len = skb->len;
	dma = dma_map_single(ice_lite_pf_to_dev(pf), skb->data, len,
			     DMA_TO_DEVICE);
	if (dma_mapping_error(ice_lite_pf_to_dev(pf), dma))
		return ice_lite_tx_drop(pf, skb);

	i = ring->next_to_use;
	buf = &ring->bufs[i];
	buf->skb = skb;
	buf->dma = dma;
	buf->len = len;
	desc = &ring->desc[i];
	desc->buf_addr = cpu_to_le64(dma);
	desc->cmd_type_offset_bsz =
		cpu_to_le64(FIELD_PREP(E810_TXD_DTYPE, E810_TX_DESC_DTYPE_DATA) |
			    FIELD_PREP(E810_TXD_CMD, E810_TX_DESC_CMD_EOP |
				       E810_TX_DESC_CMD_RS) |
			    FIELD_PREP(E810_TXD_BUF_SZ, len));
	skb_tx_timestamp(skb);

	/* NAPI must see the new descriptor before the index that covers it. */
	smp_wmb();
	WRITE_ONCE(ring->next_to_use, (i + 1) % ring->count);
	ice_lite_tx_maybe_stop(ring, txq);
	/* writel() orders the descriptor before the doorbell. */
	if (__netdev_tx_sent_queue(txq, len, netdev_xmit_more()))
		ice_lite_wr32(pf, E810_QTX_COMM_DBELL(ICE_LITE_LAN_Q),
			      ring->next_to_use);
	return NETDEV_TX_OK;
}

/**
 * ice_lite_clean_tx() - free the packets the device has sent
 * @pf: the PF
 * @budget: NAPI budget (0 from netpoll)
 *
 * A packet is done when its descriptor reads back DTYPE DESC_DONE.
 *
 * Context: NAPI.
 */
static void ice_lite_clean_tx(struct ice_lite_pf *pf, int budget)
{
	struct netdev_queue *txq = netdev_get_tx_queue(pf->netdev, 0);
	struct ice_lite_tx_ring *ring = &pf->tx_ring;
	struct device *dev = ice_lite_pf_to_dev(pf);
	unsigned int pkts = 0, bytes = 0;
	u16 ntc = ring->next_to_clean;
	struct ice_lite_tx_buf *buf;
	u64 qw1;

	while (ntc != READ_ONCE(ring->next_to_use)) {
		/* Pairs with smp_wmb() in start_xmit. */
		smp_rmb();
		qw1 = le64_to_cpu(READ_ONCE(ring->desc[ntc].cmd_type_offset_bsz));
		if (FIELD_GET(E810_TXD_DTYPE, qw1) !=
		    E810_TX_DESC_DTYPE_DESC_DONE)
			break;

		buf = &ring->bufs[ntc];
		dma_unmap_single(dev, buf->dma, buf->len, DMA_TO_DEVICE);
		bytes += buf->len;
		pkts++;
		napi_consume_skb(buf->skb, budget);
		buf->skb = NULL;
		ntc = (ntc + 1) % ring->count;
	}
	if (!pkts)
		return;

	WRITE_ONCE(ring->next_to_clean, ntc);
	u64_stats_update_begin(&pf->tx_stats.syncp);
	pf->tx_stats.packets += pkts;
	pf->tx_stats.bytes += bytes;
	u64_stats_update_end(&pf->tx_stats.syncp);

	netdev_tx_completed_queue(txq, pkts, bytes);
	ice_lite_tx_maybe_wake(ring, txq);
}

/* ---- Rx ---------------------------------------------------------------- */

/**
 * ice_lite_rx_give_buf() - put a fresh buffer in Rx slot @i
 * @pf: the PF
 * @i: the slot
 * @gfp: allocation flags
 *
 * Return: true on success, false if no memory (the slot stays empty).
 */
static bool ice_lite_rx_give_buf(struct ice_lite_pf *pf, u16 i, gfp_t gfp)
{
	struct ice_lite_rx_ring *ring = &pf->rx_ring;
	struct device *dev = ice_lite_pf_to_dev(pf);
	union ice_lite_rx_desc *desc = &ring->desc[i];
	struct sk_buff *skb;
	dma_addr_t dma;

	skb = __netdev_alloc_skb_ip_align(pf->netdev, ring->buf_len, gfp);
	if (!skb)
		return false;
	dma = dma_map_single(dev, skb->data, ring->buf_len, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, dma)) {
		dev_kfree_skb_any(skb);
		return false;
	}
	ring->bufs[i].skb = skb;
	ring->bufs[i].dma = dma;

	/* hdr_addr 0 also clears DD, which shares its bits. */
	desc->read.pkt_addr = cpu_to_le64(dma);
	desc->read.hdr_addr = 0;
	desc->read.rsvd1 = 0;
	desc->read.rsvd2 = 0;
	return true;
}

/**
 * ice_lite_rx_refill() - give buffers to every empty slot, move the tail
 * @pf: the PF
 * @gfp: allocation flags
 *
 * The tail is written in multiples of 8, as the hardware reads it.
 *
 * Return: false if a buffer could not be allocated.
 */
static bool ice_lite_rx_refill(struct ice_lite_pf *pf, gfp_t gfp)
{
	struct ice_lite_rx_ring *ring = &pf->rx_ring;
	u16 old = ring->next_to_use;
	bool ok = true;

	while (ice_lite_rx_unused(ring)) {
		if (!ice_lite_rx_give_buf(pf, ring->next_to_use, gfp)) {
			ok = false;
			break;
		}
		ring->next_to_use = (ring->next_to_use + 1) % ring->count;
	}
	if ((old & ICE_LITE_RX_TAIL_MASK) !=
	    (ring->next_to_use & ICE_LITE_RX_TAIL_MASK))
		/* writel() orders the descriptors before the tail. */
		ice_lite_wr32(pf, E810_QRX_TAIL(ICE_LITE_LAN_Q),
			      ring->next_to_use & ICE_LITE_RX_TAIL_MASK);
	return ok;
}

/**
 * ice_lite_rx_ctrl() - request Rx queue 0 on or off and wait for it
 * @pf: the PF
 * @enable: the state wanted
 *
 * Context: Process context.
 * Return: 0 or -ETIMEDOUT.
 */
static int ice_lite_rx_ctrl(struct ice_lite_pf *pf, bool enable)
{
	u32 reg = E810_QRX_CTRL(ICE_LITE_LAN_Q);
	u32 ctrl = ice_lite_rd32(pf, reg);
	int err;

	if (!!(ctrl & E810_QRX_CTRL_QENA_STAT) == enable)
		return 0;
	if (enable)
		ctrl |= E810_QRX_CTRL_QENA_REQ;
	else
		ctrl &= ~E810_QRX_CTRL_QENA_REQ;
	ice_lite_wr32(pf, reg, ctrl);

	err = read_poll_timeout(ice_lite_rd32, ctrl,
				!!(ctrl & E810_QRX_CTRL_QENA_STAT) == enable,
				ICE_LITE_QENA_POLL_US, ICE_LITE_QENA_TIMEOUT_US,
				false, pf, reg);
	if (err)
		dev_err(ice_lite_pf_to_dev(pf),
			"Rx queue %u does not turn %s: QRX_CTRL 0x%08x\n",
			ICE_LITE_LAN_Q, enable ? "on" : "off", ctrl);
	return err;
}

/**
 * ice_lite_rx_start() - program, enable and fill Rx queue 0
 * @pf: the PF, with the ring allocated
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_rx_start(struct ice_lite_pf *pf)
{
	struct ice_lite_rx_ring *ring = &pf->rx_ring;
	union {
		u8 b[E810_RLAN_CTX_SIZE];
		__le32 dw[E810_RLAN_CTX_SIZE / 4];
	} ctx = {};
	unsigned int i;
	int err;

	ice_lite_wr32(pf, E810_QRXFLXP_CNTXT(ICE_LITE_LAN_Q),
		      FIELD_PREP(E810_QRXFLXP_CNTXT_RXDID_IDX,
				 E810_RXDID_FLEX_NIC) |
		      FIELD_PREP(E810_QRXFLXP_CNTXT_RXDID_PRIO, 3));

	e810_ctx_set(ctx.b, E810_RLAN_CTX_HEAD, 0);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_BASE, ring->dma >> E810_RLAN_BASE_SHIFT);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_QLEN, ring->count);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_DBUF,
		     ring->buf_len >> E810_RLAN_DBUF_SHIFT);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_HBUF, 0);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_DTYPE, 0);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_DSIZE, 1);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_CRCSTRIP, 1);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_L2TSEL, 1);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_RXMAX, ring->buf_len);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_LRXQTHRESH, 1);
	e810_ctx_set(ctx.b, E810_RLAN_CTX_PREFENA, 1);
	/* Dword i holds context bytes 4i..4i+3, little-endian. */
	for (i = 0; i < ARRAY_SIZE(ctx.dw); i++)
		ice_lite_wr32(pf, E810_QRX_CONTEXT(i, ICE_LITE_LAN_Q),
			      le32_to_cpu(ctx.dw[i]));
	ice_lite_wr32(pf, E810_QRX_TAIL(ICE_LITE_LAN_Q), 0);

	ice_lite_wr32(pf, E810_QINT_RQCTL(ICE_LITE_LAN_Q),
		      FIELD_PREP(E810_INT_CTL_MSIX_INDX, ICE_LITE_MSIX_LAN) |
		      FIELD_PREP(E810_INT_CTL_ITR_INDX, E810_ITR_IDX_0) |
		      E810_INT_CTL_CAUSE_ENA);

	err = ice_lite_rx_ctrl(pf, true);
	if (err)
		return err;
	if (!ice_lite_rx_refill(pf, GFP_KERNEL) &&
	    ring->next_to_use < ICE_LITE_RX_DESC / 2) {
		ice_lite_rx_ctrl(pf, false);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ice_lite_rx_stop() - disable Rx queue 0
 * @pf: the PF
 *
 * Context: Process context.
 */
static void ice_lite_rx_stop(struct ice_lite_pf *pf)
{
	ice_lite_rx_ctrl(pf, false);
	ice_lite_wr32(pf, E810_QINT_RQCTL(ICE_LITE_LAN_Q), 0);
}

/**
 * ice_lite_rx_drop() - account for an Rx frame that is not delivered
 * @pf: the PF
 * @skb: its buffer
 * @status: status_error0 of its (last) descriptor
 */
static void ice_lite_rx_drop(struct ice_lite_pf *pf, struct sk_buff *skb,
			     u16 status)
{
	struct ice_lite_rx_ring *ring = &pf->rx_ring;

	u64_stats_update_begin(&pf->rx_stats.syncp);
	if (!(status & E810_RX_FLEX_STATUS0_EOF)) {
		/* Start of a frame larger than one buffer. */
		if (!ring->discarding)
			pf->rx_stats.length_errors++;
		ring->discarding = true;
	} else if (ring->discarding) {
		ring->discarding = false;	/* its last piece */
	} else if (status & E810_RX_FLEX_STATUS0_RXE) {
		pf->rx_stats.errors++;
	} else {
		pf->rx_stats.length_errors++;
	}
	u64_stats_update_end(&pf->rx_stats.syncp);
	dev_kfree_skb_any(skb);
}

/**
 * ice_lite_clean_rx() - pass received frames up the stack
 * @pf: the PF
 * @budget: most frames to handle
 *
 * Context: NAPI.
 * Return: the number of descriptors handled.
 */
static int ice_lite_clean_rx(struct ice_lite_pf *pf, int budget)
{
	struct ice_lite_rx_ring *ring = &pf->rx_ring;
	struct device *dev = ice_lite_pf_to_dev(pf);
	unsigned int pkts = 0, bytes = 0;
	union ice_lite_rx_desc *desc;
	struct sk_buff *skb;
	u16 status, len;
	int done = 0;

	while (done < budget) {
		desc = &ring->desc[ring->next_to_clean];
		status = le16_to_cpu(READ_ONCE(desc->wb.status_error0));
		if (!(status & E810_RX_FLEX_STATUS0_DD))
			break;
		/* Read the rest of the descriptor only after DD. */
		dma_rmb();
		len = FIELD_GET(E810_RX_FLEX_PKT_LEN,
				le16_to_cpu(desc->wb.pkt_len));

		skb = ring->bufs[ring->next_to_clean].skb;
		dma_unmap_single(dev, ring->bufs[ring->next_to_clean].dma,
				 ring->buf_len, DMA_FROM_DEVICE);
		ring->bufs[ring->next_to_clean].skb = NULL;
		ring->next_to_clean = (ring->next_to_clean + 1) % ring->count;
		done++;

		if (ring->discarding ||
		    (status & (E810_RX_FLEX_STATUS0_EOF |
			       E810_RX_FLEX_STATUS0_RXE)) !=
		    E810_RX_FLEX_STATUS0_EOF ||
		    len < ETH_HLEN || len > ring->buf_len) {
			ice_lite_rx_drop(pf, skb, status);
			continue;
		}

		skb_put(skb, len);
		skb->protocol = eth_type_trans(skb, pf->netdev);
		napi_gro_receive(&pf->napi, skb);
		pkts++;
		bytes += len;
	}

	if (pkts) {
		u64_stats_update_begin(&pf->rx_stats.syncp);
		pf->rx_stats.packets += pkts;
		pf->rx_stats.bytes += bytes;
		u64_stats_update_end(&pf->rx_stats.syncp);
	}
	return done;
}

/* ---- NAPI and the LAN vector ------------------------------------------ */

/**
 * ice_lite_napi_poll() - NAPI poll of the LAN queue pair
 * @napi: &ice_lite_pf.napi
 * @budget: most Rx frames to handle
 *
 * Cleans Tx, then Rx, refills Rx; when done re-arms the LAN vector that
 * auto-masked itself when it fired.
 *
 * Context: NAPI (softirq).
 * Return: work done, @budget to be polled again.
 */
int ice_lite_napi_poll(struct napi_struct *napi, int budget)
{
	struct ice_lite_pf *pf = container_of(napi, struct ice_lite_pf, napi);
	bool refilled;
	int done = 0;

	ice_lite_clean_tx(pf, budget);
	if (!budget)
		return 0;

	done = ice_lite_clean_rx(pf, budget);
	/* Without memory for buffers, poll again rather than stall. */
	refilled = ice_lite_rx_refill(pf, GFP_ATOMIC);
	if (done >= budget || !refilled)
		return budget;

	if (napi_complete_done(napi, done))
		ice_lite_wr32(pf, E810_GLINT_DYN_CTL(ICE_LITE_MSIX_LAN),
			      ICE_LITE_DYN_CTL_REARM);
	return done;
}

/**
 * ice_lite_lan_irq() - the LAN vector: hand the work to NAPI
 * @irq: the Linux irq
 * @data: the PF
 *
 * Context: Hard interrupt.
 * Return: IRQ_HANDLED.
 */
static irqreturn_t ice_lite_lan_irq(int irq, void *data)
{
	struct ice_lite_pf *pf = data;

	napi_schedule_irqoff(&pf->napi);
	return IRQ_HANDLED;
}

/**
 * ice_lite_up() - start the queue pair
 * @pf: the PF, with its netdev
 *
 * Allocates the rings for the current MTU, requests the LAN vector,
 * adds Tx queue 0, programs and enables Rx queue 0, arms the vector and
 * starts the stack's Tx queue.
 *
 * Context: Process context, RTNL held.
 * Return: 0 or a negative errno.
 */
int ice_lite_up(struct ice_lite_pf *pf)
{
	int irq = pci_irq_vector(pf->pdev, ICE_LITE_MSIX_LAN);
	int err;

	ASSERT_RTNL();
	err = ice_lite_alloc_rings(pf);
	if (err)
		return err;

	snprintf(pf->lan_irq_name, sizeof(pf->lan_irq_name), "%s-%s:TxRx-0",
		 KBUILD_MODNAME, pci_name(pf->pdev));
	err = request_irq(irq, ice_lite_lan_irq, 0, pf->lan_irq_name, pf);
	if (err) {
		netdev_err(pf->netdev, "cannot request the LAN vector: %d\n",
			   err);
		goto err_free_rings;
	}
	napi_enable(&pf->napi);

	err = ice_lite_tx_start(pf);
	if (err)
		goto err_napi_disable;
	err = ice_lite_rx_start(pf);
	if (err)
		goto err_tx_stop;

	ice_lite_wr32(pf, E810_GLINT_DYN_CTL(ICE_LITE_MSIX_LAN),
		      E810_GLINT_DYN_CTL_INTENA | E810_GLINT_DYN_CTL_CLEARPBA |
		      FIELD_PREP(E810_GLINT_DYN_CTL_ITR_INDX,
				 E810_ITR_IDX_NONE));
	set_bit(ICE_LITE_STATE_UP, pf->state);
	/* Wake, not start: packets queued while the rings restarted go out. */
	netif_tx_wake_all_queues(pf->netdev);
	return 0;

err_tx_stop:
	ice_lite_wr32(pf, E810_QINT_RQCTL(ICE_LITE_LAN_Q), 0);
	ice_lite_tx_stop(pf);
err_napi_disable:
	napi_disable(&pf->napi);
	free_irq(irq, pf);
err_free_rings:
	ice_lite_free_rings(pf);
	return err;
}

/**
 * ice_lite_down() - stop the queue pair
 * @pf: the PF
 *
 * Undoes ice_lite_up(); does nothing if the rings are not running.
 *
 * Context: Process context, RTNL held.
 */
void ice_lite_down(struct ice_lite_pf *pf)
{
	int irq = pci_irq_vector(pf->pdev, ICE_LITE_MSIX_LAN);

	ASSERT_RTNL();
	if (!test_and_clear_bit(ICE_LITE_STATE_UP, pf->state))
		return;

	ice_lite_rx_stop(pf);
	ice_lite_wr32(pf, E810_QINT_TQCTL(ICE_LITE_LAN_Q), 0);
	ice_lite_wr32(pf, E810_GLINT_DYN_CTL(ICE_LITE_MSIX_LAN), 0);
	synchronize_irq(irq);
	/* NAPI first: a poll still running could wake the Tx queue after it
	 * was disabled, and start_xmit would then find the rings gone.
	 */
	napi_disable(&pf->napi);
	netif_tx_disable(pf->netdev);
	ice_lite_tx_stop(pf);
	free_irq(irq, pf);
	ice_lite_free_rings(pf);
}
