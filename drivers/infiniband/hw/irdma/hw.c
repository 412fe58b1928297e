// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the hardware generations as data, and the checks that the
 * protocol engine is usable before any control structure is built
 * (docs/hw-reference.md chapter 1, 2.1; upstream irdma_sc_dev_init()).
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/pci.h>

#include <hw/e810_regs.h>

#include "main.h"
#include "quarantine.h"

/* Like upstream GEN_2: retry 14 times, 1 s apart, before giving up. */
#define IRDMA_PE_READY_RETRIES	14
#define IRDMA_PE_READY_WAIT_MS	1000

/* The generations (include/hw/e810_gen.h). */
const struct irdma_gen irdma_gen_1 = {
	.hw = E810_HW_GEN1,
	.regs = E810_PE_REGS_GEN1,
};

const struct irdma_gen irdma_gen_2 = {
	.hw = E810_HW_GEN2,
	.regs = E810_PE_REGS_GEN2,
};

#define IRDMA_PE_CPUS	ARRAY_SIZE(((struct e810_pe_regs *)NULL)->cpustatus)

/**
 * irdma_pe_not_ready() - find a protocol-engine CPU that is not ready
 * @rf: per-function state
 * @val: the value read from the register returned
 *
 * Return: the index n of the first GLPE_CPUSTATUSn that does not read
 * %E810_GLPE_CPUSTATUS_READY, or -1 if all of them do.
 */
static int irdma_pe_not_ready(struct irdma_pci_f *rf, u32 *val)
{
	unsigned int i;

	for (i = 0; i < IRDMA_PE_CPUS; i++) {
		*val = irdma_rd32(rf, IRDMA_REG(rf, cpustatus[i]));
		if (*val != E810_GLPE_CPUSTATUS_READY)
			return i;
	}

	return -1;
}

/**
 * irdma_wait_pe_ready() - wait until the protocol engine reports ready
 * @rf: per-function state
 *
 * Context: Process context, sleeps (up to about 15 s).
 * Return: 0, or -ENODEV if a CPU of the engine never becomes ready.
 */
static int irdma_wait_pe_ready(struct irdma_pci_f *rf)
{
	unsigned int retry;
	int cpu;
	u32 val;

	for (retry = 0; ; retry++) {
		cpu = irdma_pe_not_ready(rf, &val);
		if (cpu < 0)
			return 0;
		if (retry == IRDMA_PE_READY_RETRIES)
			break;
		msleep(IRDMA_PE_READY_WAIT_MS);
	}

	dev_err(irdma_rf_to_dev(rf),
		"PE not ready: GLPE_CPUSTATUS%d (0x%08x) reads 0x%08x, want 0x%02x\n",
		cpu, IRDMA_REG(rf, cpustatus[cpu]), val,
		E810_GLPE_CPUSTATUS_READY);
	return -ENODEV;
}

/**
 * irdma_check_db_size() - check the doorbell space the engine decodes
 * @rf: per-function state
 *
 * Return: 0, or -ENODEV unless GLPCI_LBARCTRL.PE_DB_SIZE is 4 or 8 MiB.
 */
static int irdma_check_db_size(struct irdma_pci_f *rf)
{
	u32 val = irdma_rd32(rf, IRDMA_REG(rf, lbarctrl));
	u32 db_size = FIELD_GET(E810_GLPCI_LBARCTRL_PE_DB_SIZE, val);

	if (db_size == E810_PE_DB_SIZE_4M || db_size == E810_PE_DB_SIZE_8M)
		return 0;

	dev_err(irdma_rf_to_dev(rf),
		"GLPCI_LBARCTRL (0x%08x) reads 0x%08x: bad PE_DB_SIZE %u\n",
		IRDMA_REG(rf, lbarctrl), val, db_size);
	return -ENODEV;
}

/**
 * irdma_check_bar() - check that BAR0 covers the doorbell page
 * @rf: per-function state
 *
 * Return: 0, or -ENODEV if BAR0 ends before the end of the doorbell page.
 */
static int irdma_check_bar(struct irdma_pci_f *rf)
{
	resource_size_t len = pci_resource_len(rf->pcidev, E810_BAR0);

	if (len >= IRDMA_REG(rf, db_addr) + E810_DB_PAGE_SIZE)
		return 0;

	dev_err(irdma_rf_to_dev(rf),
		"BAR0 (%pa bytes) does not cover the doorbell page at 0x%08x\n",
		&len, IRDMA_REG(rf, db_addr));
	return -ENODEV;
}

/**
 * irdma_check_hw() - check that the engine of @rf can be brought up
 * @rf: per-function state
 *
 * Waits for the protocol engine to report ready, then checks the doorbell
 * size it decodes and that BAR0 is large enough for the doorbell page.
 *
 * Context: Process context, sleeps.
 * Return: 0 or -ENODEV.
 */
int irdma_check_hw(struct irdma_pci_f *rf)
{
	int err;

	err = irdma_wait_pe_ready(rf);
	if (err)
		return err;

	err = irdma_check_db_size(rf);
	if (err)
		return err;

	return irdma_check_bar(rf);
}

/**
 * irdma_dma_alloc() - allocate zeroed coherent DMA memory
 * @rf: per-function state
 * @mem: filled with the buffer
 * @size: bytes (the buffer is page aligned)
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_dma_alloc(struct irdma_pci_f *rf, struct irdma_dma *mem,
		    size_t size, gfp_t gfp)
{
	mem->va = dma_alloc_coherent(&rf->pcidev->dev, size, &mem->pa, gfp);
	if (!mem->va)
		return -ENOMEM;
	mem->size = size;
	return 0;
}

/**
 * irdma_dma_free() - free memory from irdma_dma_alloc(); no-op if none
 * @rf: per-function state
 * @mem: the buffer, cleared
 *
 * While the engine may still reach the buffer (no device commands ran to
 * take it away: quarantine.c) it is held until the function is reset.
 *
 * Context: Process context, sleeps.
 */
void irdma_dma_free(struct irdma_pci_f *rf, struct irdma_dma *mem)
{
	if (!mem->va)
		return;
	if (irdma_engine_may_reach(rf)) {
		irdma_quarantine_dma(rf, mem);
		return;
	}
	dma_free_coherent(&rf->pcidev->dev, mem->size, mem->va, mem->pa);
	mem->va = NULL;
	mem->pa = 0;
	mem->size = 0;
}
