// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: memory the engine may still reach is never freed.
 *
 * Teardown normally destroys every object with a CQP command before its
 * memory goes back to the kernel. It cannot when the function is about to
 * be reset (a critical error, a hung CQP, the parent's reset) or when a
 * DESTROY/DEALLOC command did not run: until the function reset the engine
 * can still write completions and event entries into the rings, land
 * incoming RDMA WRITEs in registered memory and read PBLEs and contexts
 * from the HMC backing pages. Freeing that memory would hand it to someone
 * else while the device keeps writing to it.
 *
 * Such memory is held here instead, per PCI function, and freed once the
 * function provably has no engine state left: CCQPSTATUS reads back without
 * CCQP_DONE (no CQP exists, so the function was reset or torn down in
 * order) at the next bind of the function or at the end of an orderly
 * unbind. What is still held when the module unloads stays allocated,
 * with a warning: a leak is bounded, a device writing into freed pages is
 * not. docs/irdma.md, "Teardown during a reset".
 */

#include <linux/kmemleak.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>

#include <hw/e810_regs.h>

#include "main.h"
#include "events.h"
#include "quarantine.h"

/**
 * struct irdma_qrn_entry - one held buffer
 * @list: entry in irdma_qrn_list
 * @pdev: the function whose engine may reach it (a reference is held)
 * @dma: coherent DMA memory, or
 * @umem: pinned user memory
 */
struct irdma_qrn_entry {
	struct list_head list;
	struct pci_dev *pdev;
	struct irdma_dma dma;
	struct ib_umem *umem;
};

static LIST_HEAD(irdma_qrn_list);
static DEFINE_MUTEX(irdma_qrn_mutex);
static struct irdma_qrn_stats irdma_qrn_stats;

/**
 * irdma_engine_may_reach() - may the engine still use memory it was given?
 * @rf: per-function state
 *
 * True while device commands cannot run (the function waits for a reset,
 * or the CQP hung) and the function has not been seen reset.
 */
bool irdma_engine_may_reach(struct irdma_pci_f *rf)
{
	if (READ_ONCE(rf->engine_reset))
		return false;
	return READ_ONCE(rf->resetting) || READ_ONCE(rf->cqp.hung);
}

/*
 * No CQP exists: the function was reset, or torn down in order. A read of
 * all ones is a function that does not answer (a reset under way): it
 * proves nothing.
 */
static bool irdma_engine_idle(struct irdma_pci_f *rf)
{
	u32 status = irdma_rd32(rf, IRDMA_REG(rf, ccqpstatus));

	return status != U32_MAX && !(status & E810_CCQPSTATUS_CCQP_DONE);
}

/**
 * irdma_engine_check_reset() - note a function reset that already happened
 * @rf: per-function state
 *
 * Called at the start of an unbind during a reset: when the parent reset
 * the function before withdrawing us, nothing the engine had is live and
 * memory is freed at once.
 *
 * Context: Process context.
 */
void irdma_engine_check_reset(struct irdma_pci_f *rf)
{
	if (READ_ONCE(rf->resetting) && irdma_engine_idle(rf))
		WRITE_ONCE(rf->engine_reset, true);
}

static struct irdma_qrn_entry *irdma_qrn_new(struct irdma_pci_f *rf)
{
	struct irdma_qrn_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e) {
		irdma_qrn_stats.lost++;
		return NULL;
	}
	e->pdev = pci_dev_get(rf->pcidev);
	return e;
}

static void irdma_qrn_add(struct irdma_qrn_entry *e)
{
	list_add_tail(&e->list, &irdma_qrn_list);
	if (e->umem) {
		irdma_qrn_stats.umems++;
		irdma_qrn_stats.umem_bytes += e->umem->length;
	} else {
		irdma_qrn_stats.bufs++;
		irdma_qrn_stats.bytes += e->dma.size;
	}
}

/**
 * irdma_quarantine_dma() - hold DMA memory until the function is reset
 * @rf: per-function state
 * @mem: the buffer; cleared, as irdma_dma_free() clears it
 *
 * If no entry can be allocated the buffer is left allocated (and counted
 * as lost): still never freed under the engine.
 *
 * Context: Process context, sleeps.
 */
void irdma_quarantine_dma(struct irdma_pci_f *rf, struct irdma_dma *mem)
{
	struct irdma_qrn_entry *e;

	if (!mem->va)
		return;
	mutex_lock(&irdma_qrn_mutex);
	e = irdma_qrn_new(rf);
	if (e) {
		e->dma = *mem;
		irdma_qrn_add(e);
	}
	mutex_unlock(&irdma_qrn_mutex);
	memset(mem, 0, sizeof(*mem));
}

/**
 * irdma_quarantine_umem() - hold pinned user memory until the function is reset
 * @rf: per-function state
 * @umem: the pinning, released later with ib_umem_release()
 *
 * Context: Process context, sleeps.
 */
void irdma_quarantine_umem(struct irdma_pci_f *rf, struct ib_umem *umem)
{
	struct irdma_qrn_entry *e;

	if (!umem)
		return;
	mutex_lock(&irdma_qrn_mutex);
	e = irdma_qrn_new(rf);
	if (e) {
		/*
		 * ib_umem_release() unmaps through umem->ibdev, which is
		 * unregistered and deallocated before the function is reset:
		 * keep its memory until then.
		 */
		get_device(&umem->ibdev->dev);
		e->umem = umem;
		irdma_qrn_add(e);
	}
	mutex_unlock(&irdma_qrn_mutex);
}

/**
 * irdma_umem_retire() - release user memory the device used
 * @rf: per-function state
 * @umem: the pinning, or NULL
 *
 * Context: Process context, sleeps.
 */
void irdma_umem_retire(struct irdma_pci_f *rf, struct ib_umem *umem)
{
	if (irdma_engine_may_reach(rf))
		irdma_quarantine_umem(rf, umem);
	else
		ib_umem_release(umem);
}

static void irdma_qrn_free(struct irdma_qrn_entry *e)
{
	list_del(&e->list);
	if (e->umem) {
		struct ib_device *ibdev = e->umem->ibdev;

		irdma_qrn_stats.umems--;
		irdma_qrn_stats.umem_bytes -= e->umem->length;
		ib_umem_release(e->umem);
		put_device(&ibdev->dev);
	} else {
		irdma_qrn_stats.bufs--;
		irdma_qrn_stats.bytes -= e->dma.size;
		dma_free_coherent(&e->pdev->dev, e->dma.size, e->dma.va,
				  e->dma.pa);
	}
	irdma_qrn_stats.released++;
	pci_dev_put(e->pdev);
	kfree(e);
}

/**
 * irdma_quarantine_release() - free what the function's engine held
 * @rf: per-function state of a function bound to its parent
 *
 * Frees every held buffer of @rf's PCI function if the function has no
 * CQP: it was reset since (bind) or torn down in order (unbind).
 * Otherwise the memory stays held and the reason is logged.
 *
 * Context: Process context, sleeps.
 */
void irdma_quarantine_release(struct irdma_pci_f *rf)
{
	struct irdma_qrn_entry *e, *tmp;
	unsigned int n = 0;
	size_t bytes = 0;

	mutex_lock(&irdma_qrn_mutex);
	list_for_each_entry_safe(e, tmp, &irdma_qrn_list, list) {
		if (e->pdev != rf->pcidev)
			continue;
		if (!n && !irdma_engine_idle(rf)) {
			dev_warn(irdma_rf_to_dev(rf),
				 "the engine was not reset: held memory stays held (CCQPSTATUS 0x%08x)\n",
				 irdma_rd32(rf, IRDMA_REG(rf, ccqpstatus)));
			break;
		}
		bytes += e->umem ? e->umem->length : e->dma.size;
		n++;
		irdma_qrn_free(e);
	}
	mutex_unlock(&irdma_qrn_mutex);
	irdma_ev_add(rf, IRDMA_EV_QUARANTINE_RELEASED, n);
	if (n)
		dev_dbg(irdma_rf_to_dev(rf),
			"no engine state left: freed %u held buffers (%zu KiB)\n",
			n, bytes >> 10);
}

/**
 * irdma_quarantine_count() - held buffers of one function, and their bytes
 * @rf: per-function state
 * @bytes: filled with their total size
 *
 * Return: the number of held buffers (DMA and user memory).
 */
unsigned int irdma_quarantine_count(struct irdma_pci_f *rf, size_t *bytes)
{
	struct irdma_qrn_entry *e;
	unsigned int n = 0;

	*bytes = 0;
	mutex_lock(&irdma_qrn_mutex);
	list_for_each_entry(e, &irdma_qrn_list, list) {
		if (e->pdev != rf->pcidev)
			continue;
		*bytes += e->umem ? e->umem->length : e->dma.size;
		n++;
	}
	mutex_unlock(&irdma_qrn_mutex);
	return n;
}

/**
 * irdma_quarantine_show() - module-wide counters, for debugfs
 * @m: the seq_file
 */
void irdma_quarantine_show(struct seq_file *m)
{
	mutex_lock(&irdma_qrn_mutex);
	seq_printf(m, "held_bufs %u\nheld_bytes %zu\nheld_umems %u\nheld_umem_bytes %zu\nreleased %llu\nlost %llu\n",
		   irdma_qrn_stats.bufs, irdma_qrn_stats.bytes,
		   irdma_qrn_stats.umems, irdma_qrn_stats.umem_bytes,
		   irdma_qrn_stats.released, irdma_qrn_stats.lost);
	mutex_unlock(&irdma_qrn_mutex);
}

/**
 * irdma_quarantine_exit() - module unload: what is still held stays allocated
 *
 * Without a bound function there is no register to prove a reset, and the
 * parent may reset the function only after we are gone: the memory is left
 * allocated (and kmemleak told so), the entries and PCI device references
 * are dropped; a held user pinning keeps its ib_device.
 */
void irdma_quarantine_exit(void)
{
	struct irdma_qrn_entry *e, *tmp;

	mutex_lock(&irdma_qrn_mutex);
	list_for_each_entry_safe(e, tmp, &irdma_qrn_list, list) {
		pr_warn("irdma: %s: %zu bytes the engine may still reach stay allocated\n",
			pci_name(e->pdev),
			e->umem ? e->umem->length : e->dma.size);
		if (e->umem)
			kmemleak_not_leak(e->umem);
		list_del(&e->list);
		pci_dev_put(e->pdev);
		kfree(e);
	}
	mutex_unlock(&irdma_qrn_mutex);
}
