// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the PF admin queue engine, brought up and driven the way ice
 * does it (docs/hw-reference-lan.md 2.2, 2.6 and 2.7).
 *
 * Commands go on the ATQ and complete when the firmware moves ATQH past
 * them; events arrive on the ARQ into pre-posted 4 KiB buffers and are
 * drained by a work item the misc interrupt schedules.
 */

#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/iopoll.h>
#include <linux/slab.h>

#include <hw/e810_regs.h>

#include "ice_lite.h"

/* ATQH is polled every 100-150 us for up to one second (HZ in ice 6.x). */
#define ICE_LITE_AQ_POLL_US		150
#define ICE_LITE_AQ_TIMEOUT_US		USEC_PER_SEC

/* Events handled per pass of the ARQ work (ICE_DFLT_IRQ_WORK). */
#define ICE_LITE_ARQ_WORK_LIMIT		256

#define ICE_LITE_AQLEN_ERR_BITS		(E810_PF_FW_AQLEN_VFE | \
					 E810_PF_FW_AQLEN_OVFL | \
					 E810_PF_FW_AQLEN_CRIT)

/**
 * ice_lite_aq_init_locks() - initialise the admin queue locks
 * @pf: the PF
 */
void ice_lite_aq_init_locks(struct ice_lite_pf *pf)
{
	mutex_init(&pf->aq.atq_lock);
	mutex_init(&pf->aq.arq_lock);
}

/**
 * ice_lite_aq_destroy_locks() - undo ice_lite_aq_init_locks()
 * @pf: the PF
 */
void ice_lite_aq_destroy_locks(struct ice_lite_pf *pf)
{
	mutex_destroy(&pf->aq.arq_lock);
	mutex_destroy(&pf->aq.atq_lock);
}

/**
 * ice_lite_aq_free_ring() - free the memory of one ring
 * @pf: the PF
 * @ring: the ring; safe on a partly allocated one
 */
static void ice_lite_aq_free_ring(struct ice_lite_pf *pf,
				  struct ice_lite_aq_ring *ring)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	unsigned int i;

	if (ring->bufs) {
		for (i = 0; i < ring->count; i++)
			if (ring->bufs[i])
				dma_free_coherent(dev, ICE_LITE_AQ_BUF_SZ,
						  ring->bufs[i],
						  ring->bufs_pa[i]);
	}
	kfree(ring->bufs_pa);
	kfree(ring->bufs);
	ring->bufs_pa = NULL;
	ring->bufs = NULL;
	if (ring->desc)
		dma_free_coherent(dev, ring->count * sizeof(*ring->desc),
				  ring->desc, ring->desc_pa);
	ring->desc = NULL;
}

/**
 * ice_lite_aq_alloc_ring() - allocate descriptors and one buffer per slot
 * @pf: the PF
 * @ring: the ring, with @ring->count set
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
static int ice_lite_aq_alloc_ring(struct ice_lite_pf *pf,
				  struct ice_lite_aq_ring *ring)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	unsigned int i;

	ring->desc = dma_alloc_coherent(dev, ring->count * sizeof(*ring->desc),
					&ring->desc_pa, GFP_KERNEL);
	ring->bufs = kcalloc(ring->count, sizeof(*ring->bufs), GFP_KERNEL);
	ring->bufs_pa = kcalloc(ring->count, sizeof(*ring->bufs_pa),
				GFP_KERNEL);
	if (!ring->desc || !ring->bufs || !ring->bufs_pa)
		goto err_free;

	for (i = 0; i < ring->count; i++) {
		ring->bufs[i] = dma_alloc_coherent(dev, ICE_LITE_AQ_BUF_SZ,
						   &ring->bufs_pa[i],
						   GFP_KERNEL);
		if (!ring->bufs[i])
			goto err_free;
	}
	ring->next_to_use = 0;
	ring->next_to_clean = 0;
	return 0;

err_free:
	ice_lite_aq_free_ring(pf, ring);
	return -ENOMEM;
}

/**
 * ice_lite_aq_post_arq_desc() - (re)post ARQ slot @i with its buffer
 * @ring: the ARQ
 * @i: the slot
 */
static void ice_lite_aq_post_arq_desc(struct ice_lite_aq_ring *ring, u16 i)
{
	struct e810_aq_desc *d = &ring->desc[i];

	memset(d, 0, sizeof(*d));
	d->flags = cpu_to_le16(E810_AQ_FLAG_BUF | E810_AQ_FLAG_LB);
	d->datalen = cpu_to_le16(ICE_LITE_AQ_BUF_SZ);
	d->params.generic.addr_high = cpu_to_le32(upper_32_bits(ring->bufs_pa[i]));
	d->params.generic.addr_low = cpu_to_le32(lower_32_bits(ring->bufs_pa[i]));
}

/**
 * ice_lite_aq_program_ring() - tell the device where a ring is
 * @pf: the PF
 * @ring: the ring
 *
 * HEAD = 0, TAIL = 0, LEN = count | ENABLE, BAL, BAH, then BAL is read
 * back: a device that does not keep it is not usable.
 *
 * Return: 0 or -EIO.
 */
static int ice_lite_aq_program_ring(struct ice_lite_pf *pf,
				    struct ice_lite_aq_ring *ring)
{
	u32 bal = lower_32_bits(ring->desc_pa);

	ice_lite_wr32(pf, ring->reg_head, 0);
	ice_lite_wr32(pf, ring->reg_tail, 0);
	ice_lite_wr32(pf, ring->reg_len,
		      FIELD_PREP(E810_PF_FW_AQLEN_LEN, ring->count) |
		      E810_PF_FW_AQLEN_ENABLE);
	ice_lite_wr32(pf, ring->reg_bal, bal);
	ice_lite_wr32(pf, ring->reg_bah, upper_32_bits(ring->desc_pa));

	if (ice_lite_rd32(pf, ring->reg_bal) != bal) {
		dev_err(ice_lite_pf_to_dev(pf),
			"admin queue base 0x%08x not taken by the device\n",
			bal);
		return -EIO;
	}
	return 0;
}

/**
 * ice_lite_aq_disable_ring() - stop the device from using a ring
 * @pf: the PF
 * @ring: the ring
 */
static void ice_lite_aq_disable_ring(struct ice_lite_pf *pf,
				     struct ice_lite_aq_ring *ring)
{
	ice_lite_wr32(pf, ring->reg_head, 0);
	ice_lite_wr32(pf, ring->reg_tail, 0);
	ice_lite_wr32(pf, ring->reg_len, 0);
	ice_lite_wr32(pf, ring->reg_bal, 0);
	ice_lite_wr32(pf, ring->reg_bah, 0);
}

/**
 * ice_lite_aq_init() - bring up the ATQ and the ARQ
 * @pf: the PF, after a PF reset
 *
 * Allocates both rings, pre-posts every ARQ buffer and programs the
 * registers (hw-reference-lan 2.2). Commands can be sent when this returns 0.
 *
 * Context: Process context.
 * Return: 0, -ENOMEM or -EIO.
 */
int ice_lite_aq_init(struct ice_lite_pf *pf)
{
	struct ice_lite_aq *aq = &pf->aq;
	u16 i;
	int err;

	aq->atq = (struct ice_lite_aq_ring) {
		.count = ICE_LITE_AQ_LEN,
		.reg_head = E810_PF_FW_ATQH,
		.reg_tail = E810_PF_FW_ATQT,
		.reg_len = E810_PF_FW_ATQLEN,
		.reg_bal = E810_PF_FW_ATQBAL,
		.reg_bah = E810_PF_FW_ATQBAH,
	};
	aq->arq = (struct ice_lite_aq_ring) {
		.count = ICE_LITE_AQ_LEN,
		.reg_head = E810_PF_FW_ARQH,
		.reg_tail = E810_PF_FW_ARQT,
		.reg_len = E810_PF_FW_ARQLEN,
		.reg_bal = E810_PF_FW_ARQBAL,
		.reg_bah = E810_PF_FW_ARQBAH,
	};

	err = ice_lite_aq_alloc_ring(pf, &aq->atq);
	if (err)
		return err;
	err = ice_lite_aq_alloc_ring(pf, &aq->arq);
	if (err)
		goto err_free_atq;

	for (i = 0; i < aq->arq.count; i++)
		ice_lite_aq_post_arq_desc(&aq->arq, i);

	err = ice_lite_aq_program_ring(pf, &aq->atq);
	if (err)
		goto err_disable;
	err = ice_lite_aq_program_ring(pf, &aq->arq);
	if (err)
		goto err_disable;
	/* Give the firmware every ARQ buffer but one. */
	ice_lite_wr32(pf, aq->arq.reg_tail, aq->arq.count - 1);

	mutex_lock(&aq->atq_lock);
	mutex_lock(&aq->arq_lock);
	aq->ready = true;
	mutex_unlock(&aq->arq_lock);
	mutex_unlock(&aq->atq_lock);
	return 0;

err_disable:
	ice_lite_aq_disable_ring(pf, &aq->arq);
	ice_lite_aq_disable_ring(pf, &aq->atq);
	ice_lite_aq_free_ring(pf, &aq->arq);
err_free_atq:
	ice_lite_aq_free_ring(pf, &aq->atq);
	return err;
}

/**
 * ice_lite_aq_alive() - does the ATQ still look as we programmed it?
 * @pf: the PF
 *
 * Return: true if ATQLEN reads back count | ENABLE.
 */
static bool ice_lite_aq_alive(struct ice_lite_pf *pf)
{
	u32 len = ice_lite_rd32(pf, E810_PF_FW_ATQLEN);

	return (len & (E810_PF_FW_AQLEN_LEN | E810_PF_FW_AQLEN_ENABLE)) ==
	       (FIELD_PREP(E810_PF_FW_AQLEN_LEN, pf->aq.atq.count) |
		E810_PF_FW_AQLEN_ENABLE);
}

/**
 * ice_lite_aq_deinit() - shut the admin queue down
 * @pf: the PF
 * @unloading: tell the firmware the driver is going away
 *
 * Sends queue shutdown (0x0003) if the ATQ is alive, then disables both
 * rings and frees them. Safe to call when the queue is not up.
 *
 * Context: Process context.
 */
void ice_lite_aq_deinit(struct ice_lite_pf *pf, bool unloading)
{
	struct ice_lite_aq *aq = &pf->aq;
	struct e810_aqc_q_shutdown *cmd;
	struct e810_aq_desc desc;
	int err;

	if (!aq->ready)
		return;

	if (ice_lite_aq_alive(pf)) {
		ice_lite_aq_fill_desc(&desc, E810_AQC_Q_SHUTDOWN);
		cmd = (struct e810_aqc_q_shutdown *)desc.params.raw;
		if (unloading)
			cmd->driver_unloading = E810_AQC_DRIVER_UNLOADING;
		err = ice_lite_aq_send(pf, &desc, NULL, 0);
		if (err)
			dev_warn(ice_lite_pf_to_dev(pf),
				 "queue shutdown failed: %d (retval %u)\n",
				 err, le16_to_cpu(desc.retval));
	}

	mutex_lock(&aq->atq_lock);
	mutex_lock(&aq->arq_lock);
	aq->ready = false;
	ice_lite_aq_disable_ring(pf, &aq->atq);
	ice_lite_aq_disable_ring(pf, &aq->arq);
	mutex_unlock(&aq->arq_lock);
	mutex_unlock(&aq->atq_lock);

	ice_lite_aq_free_ring(pf, &aq->arq);
	ice_lite_aq_free_ring(pf, &aq->atq);
}

/**
 * ice_lite_aq_fill_desc() - start a command descriptor
 * @desc: the descriptor
 * @opcode: enum e810_aq_opc
 *
 * Every command starts with SI set: ice_lite polls for completion.
 */
void ice_lite_aq_fill_desc(struct e810_aq_desc *desc, u16 opcode)
{
	memset(desc, 0, sizeof(*desc));
	desc->opcode = cpu_to_le16(opcode);
	desc->flags = cpu_to_le16(E810_AQ_FLAG_SI);
}

/**
 * ice_lite_atq_reclaim() - free the slots the firmware has consumed
 * @pf: the PF
 * @ring: the ATQ
 *
 * Context: Holds the ATQ lock.
 * Return: 0, -EIO if ATQH is outside the ring, -ENOSPC if it is full.
 */
static int ice_lite_atq_reclaim(struct ice_lite_pf *pf,
				struct ice_lite_aq_ring *ring)
{
	u32 head = FIELD_GET(E810_PF_FW_AQ_PTR,
			     ice_lite_rd32(pf, ring->reg_head));

	lockdep_assert_held(&pf->aq.atq_lock);

	if (head >= ring->count) {
		dev_err(ice_lite_pf_to_dev(pf), "ATQ head overrun: %u of %u\n",
			head, ring->count);
		return -EIO;
	}
	while (ring->next_to_clean != head) {
		memset(&ring->desc[ring->next_to_clean], 0,
		       sizeof(*ring->desc));
		ring->next_to_clean = (ring->next_to_clean + 1) % ring->count;
	}
	if ((ring->next_to_use + 1) % ring->count == ring->next_to_clean)
		return -ENOSPC;
	return 0;
}

/**
 * ice_lite_aq_wait() - wait for the firmware to consume the ATQ up to ntu
 * @pf: the PF
 *
 * Context: Holds the ATQ lock, sleeps.
 * Return: 0, or -EIO after about a second.
 */
static int ice_lite_aq_wait(struct ice_lite_pf *pf)
{
	struct ice_lite_aq_ring *ring = &pf->aq.atq;
	u32 head;
	int err;

	udelay(5);
	err = read_poll_timeout(ice_lite_rd32, head,
				FIELD_GET(E810_PF_FW_AQ_PTR, head) ==
				ring->next_to_use,
				ICE_LITE_AQ_POLL_US, ICE_LITE_AQ_TIMEOUT_US,
				false, pf, ring->reg_head);
	if (!err)
		return 0;

	if ((ice_lite_rd32(pf, E810_PF_FW_ATQLEN) & E810_PF_FW_AQLEN_CRIT) ||
	    (ice_lite_rd32(pf, E810_PF_FW_ARQLEN) & E810_PF_FW_AQLEN_CRIT))
		dev_err(ice_lite_pf_to_dev(pf), "critical firmware error\n");
	return -EIO;
}

/**
 * ice_lite_aq_send() - run one admin queue command
 * @pf: the PF
 * @desc: the command; overwritten with the descriptor written back
 * @buf: indirect buffer (sent, and filled with the response), or NULL
 * @buf_size: size of @buf, at most 4096
 *
 * Posts @desc (and @buf through the slot's DMA buffer), rings ATQT and
 * polls ATQH (hw-reference-lan 2.6). The firmware's return code is left in
 * @desc->retval for the caller.
 *
 * Context: Process context, sleeps; takes the ATQ lock.
 * Return: 0; -EIO on timeout, a bad returned length or a non-zero retval;
 * -EBUSY if the queue is down; -EINVAL, -ENOSPC.
 */
int ice_lite_aq_send(struct ice_lite_pf *pf, struct e810_aq_desc *desc,
		     void *buf, u16 buf_size)
{
	struct ice_lite_aq *aq = &pf->aq;
	struct ice_lite_aq_ring *ring = &aq->atq;
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct e810_aq_desc *slot_desc;
	u16 opcode = le16_to_cpu(desc->opcode);
	u16 slot, retval, ret_len;
	int err;

	might_sleep();
	if (buf_size > ICE_LITE_AQ_BUF_SZ || !buf != !buf_size)
		return -EINVAL;

	mutex_lock(&aq->atq_lock);
	if (!aq->ready) {
		err = -EBUSY;
		goto out_unlock;
	}
	err = ice_lite_atq_reclaim(pf, ring);
	if (err)
		goto out_unlock;

	slot = ring->next_to_use;
	slot_desc = &ring->desc[slot];
	*slot_desc = *desc;
	if (buf) {
		memcpy(ring->bufs[slot], buf, buf_size);
		slot_desc->flags |= cpu_to_le16(E810_AQ_FLAG_BUF);
		if (buf_size > E810_AQ_LARGE_BUF)
			slot_desc->flags |= cpu_to_le16(E810_AQ_FLAG_LB);
		slot_desc->datalen = cpu_to_le16(buf_size);
		slot_desc->params.generic.addr_high =
			cpu_to_le32(upper_32_bits(ring->bufs_pa[slot]));
		slot_desc->params.generic.addr_low =
			cpu_to_le32(lower_32_bits(ring->bufs_pa[slot]));
	}
	ring->next_to_use = (slot + 1) % ring->count;
	/* writel() orders the descriptor and buffer before the tail. */
	ice_lite_wr32(pf, ring->reg_tail, ring->next_to_use);

	err = ice_lite_aq_wait(pf);
	if (err) {
		dev_err(dev, "admin command 0x%04x timed out\n", opcode);
		goto out_unlock;
	}

	/* The firmware wrote the descriptor before it moved ATQH. */
	dma_rmb();
	*desc = *slot_desc;
	retval = le16_to_cpu(desc->retval);
	aq->last_status = retval;
	if (buf) {
		ret_len = le16_to_cpu(desc->datalen);
		if (ret_len > buf_size) {
			dev_err(dev,
				"admin command 0x%04x returned %u bytes for a %u-byte buffer\n",
				opcode, ret_len, buf_size);
			err = -EIO;
			goto out_unlock;
		}
		memcpy(buf, ring->bufs[slot], ret_len);
	}
	if (retval) {
		dev_dbg(dev, "admin command 0x%04x failed: retval %u\n",
			opcode, retval);
		err = -EIO;
	}

out_unlock:
	mutex_unlock(&aq->atq_lock);
	return err;
}

/**
 * ice_lite_aq_check_errors() - report and clear ring error bits
 * @pf: the PF
 * @reg: ATQLEN or ARQLEN
 * @name: "ATQ" or "ARQ"
 */
static void ice_lite_aq_check_errors(struct ice_lite_pf *pf, u32 reg,
				     const char *name)
{
	u32 val = ice_lite_rd32(pf, reg);

	if (!(val & ICE_LITE_AQLEN_ERR_BITS))
		return;
	dev_warn_ratelimited(ice_lite_pf_to_dev(pf),
			     "%s error:%s%s%s\n", name,
			     val & E810_PF_FW_AQLEN_VFE ? " VF" : "",
			     val & E810_PF_FW_AQLEN_OVFL ? " overflow" : "",
			     val & E810_PF_FW_AQLEN_CRIT ? " critical" : "");
	ice_lite_wr32(pf, reg, val & ~ICE_LITE_AQLEN_ERR_BITS);
}

/**
 * ice_lite_aq_handle_event() - act on one firmware event
 * @pf: the PF
 * @opcode: the event's opcode
 * @buf: its data
 * @len: bytes in @buf
 */
static void ice_lite_aq_handle_event(struct ice_lite_pf *pf, u16 opcode,
				     const void *buf, u16 len)
{
	switch (opcode) {
	case E810_AQC_GET_LINK_STATUS:
		ice_lite_link_event(pf, buf, len);
		break;
	default:
		dev_dbg(ice_lite_pf_to_dev(pf),
			"firmware event 0x%04x (%u bytes) ignored\n", opcode,
			len);
		break;
	}
}

/**
 * ice_lite_aq_clean_arq() - handle the events the firmware has posted
 * @pf: the PF
 *
 * Follows ice (hw-reference-lan 2.7): ntu = ARQH; each slot up to it is
 * handled, re-posted and given back with ARQT = slot.
 *
 * Context: Holds the ARQ lock.
 * Return: true if events may be left (the per-pass limit was hit).
 */
static bool ice_lite_aq_clean_arq(struct ice_lite_pf *pf)
{
	struct ice_lite_aq_ring *ring = &pf->aq.arq;
	struct e810_aq_desc *d;
	unsigned int n;
	u16 ntc, flags, opcode, len;
	u32 ntu;

	lockdep_assert_held(&pf->aq.arq_lock);

	for (n = 0; n < ICE_LITE_ARQ_WORK_LIMIT; n++) {
		ntu = FIELD_GET(E810_PF_FW_AQ_PTR,
				ice_lite_rd32(pf, ring->reg_head));
		ntc = ring->next_to_clean;
		if (ntu >= ring->count) {
			dev_err_ratelimited(ice_lite_pf_to_dev(pf),
					    "ARQ head overrun: %u of %u\n",
					    ntu, ring->count);
			return false;
		}
		if (ntu == ntc)
			return false;

		/* The firmware wrote the event before it moved ARQH. */
		dma_rmb();
		d = &ring->desc[ntc];
		flags = le16_to_cpu(d->flags);
		opcode = le16_to_cpu(d->opcode);
		len = min_t(u16, le16_to_cpu(d->datalen), ICE_LITE_AQ_BUF_SZ);
		if (flags & E810_AQ_FLAG_ERR)
			dev_warn_ratelimited(ice_lite_pf_to_dev(pf),
					     "firmware event 0x%04x with error %u\n",
					     opcode, le16_to_cpu(d->retval));
		else
			ice_lite_aq_handle_event(pf, opcode, ring->bufs[ntc],
						 len);

		ice_lite_aq_post_arq_desc(ring, ntc);
		ice_lite_wr32(pf, ring->reg_tail, ntc);
		ring->next_to_clean = (ntc + 1) % ring->count;
	}
	return true;
}

/**
 * ice_lite_aq_work() - drain the ARQ
 * @work: &ice_lite_pf.aq_work
 *
 * Scheduled by the misc interrupt (the admin queue cause is only a
 * doorbell); reschedules itself if it stopped at the per-pass limit.
 *
 * Context: Process context (workqueue).
 */
void ice_lite_aq_work(struct work_struct *work)
{
	struct ice_lite_pf *pf = container_of(work, struct ice_lite_pf,
					      aq_work);
	bool more = false;

	mutex_lock(&pf->aq.arq_lock);
	if (pf->aq.ready) {
		ice_lite_aq_check_errors(pf, E810_PF_FW_ARQLEN, "ARQ");
		ice_lite_aq_check_errors(pf, E810_PF_FW_ATQLEN, "ATQ");
		more = ice_lite_aq_clean_arq(pf);
	}
	mutex_unlock(&pf->aq.arq_lock);

	if (more)
		schedule_work(&pf->aq_work);
}
