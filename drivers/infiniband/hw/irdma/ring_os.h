/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel shim of the shared ring layer (lib/irdma-ring/ring.h lists what
 * a shim provides): the layer's C types, byte order, DMA barriers and the
 * MMIO doorbell write, for kernel QPs and CQs.
 */
#ifndef IRDMA_RING_OS_H
#define IRDMA_RING_OS_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/io.h>
#include <linux/kernel.h>	/* ARRAY_SIZE() */
#include <linux/string.h>
#include <linux/types.h>
#include <asm/barrier.h>

/* WQE body before its valid bit; CQE valid bit before its body. */
#define e810u_wmb()	dma_wmb()
#define e810u_rmb()	dma_rmb()
/* WQEs written before the doorbell; a store before a later load. */
#define e810u_mb()	mb()
#define e810u_mmio_write32(p, v)	writel((v), (p))

#define E810U_DB	u32 __iomem
#define E810U_SHADOW	__le64

static inline u64 e810u_shadow_get(const __le64 *s, size_t qword)
{
	return le64_to_cpu(READ_ONCE(s[qword]));
}

static inline void e810u_shadow_set(__le64 *s, size_t qword, u64 v)
{
	WRITE_ONCE(s[qword], cpu_to_le64(v));
}

/* Little-endian qword access on WQE/CQE memory. */
static inline void e810u_put64(void *base, size_t off, u64 v)
{
	WRITE_ONCE(*(__le64 *)((u8 *)base + off), cpu_to_le64(v));
}

static inline u64 e810u_get64(const void *base, size_t off)
{
	return le64_to_cpu(READ_ONCE(*(const __le64 *)((const u8 *)base + off)));
}

#endif /* IRDMA_RING_OS_H */
