/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * User-space shim of the shared ring layer (lib/irdma-ring/): types,
 * byte order, barriers and the doorbell write as rdma-core spells them.
 * The kernel's counterpart is drivers/infiniband/hw/irdma/ring_os.h;
 * lib/irdma-ring/ring.h lists what a shim provides.
 */
#ifndef E810U_RING_OS_H
#define E810U_RING_OS_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef E810U_HOST_TEST
/* Host tests: plain memory, a full fence is more than enough. */
#define e810u_wmb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define e810u_rmb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define e810u_mmio_write32(p, v)	(*(p) = htole32(v))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#else
#include <ccan/array_size.h>
#include <util/mmio.h>
#include <util/udma_barrier.h>
/* WQE body before its valid bit; CQE valid bit before its body. */
#define e810u_wmb()	udma_to_device_barrier()
#define e810u_rmb()	udma_from_device_barrier()
#define e810u_mmio_write32(p, v)	mmio_write32((void *)(p), (v))
#endif
/* A store before a later load (the doorbell-skip test of e810u_sq_kick). */
#define e810u_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)

/* The doorbell page and the shadow areas the device reads and writes. */
#define E810U_DB	volatile uint32_t
#define E810U_SHADOW	volatile uint64_t

static inline uint64_t e810u_shadow_get(const E810U_SHADOW *s, size_t qword)
{
	return le64toh(s[qword]);
}

static inline void e810u_shadow_set(E810U_SHADOW *s, size_t qword, uint64_t v)
{
	s[qword] = htole64(v);
}

#ifdef E810U_TEST_STORE_HOOK
/* Host tests with the device model: it may fetch after any store. */
void e810u_test_store(void *base, size_t off);
#endif

/* Little-endian qword access on WQE/CQE memory. */
static inline void e810u_put64(void *base, size_t off, uint64_t v)
{
	*(volatile uint64_t *)((uint8_t *)base + off) = htole64(v);
#ifdef E810U_TEST_STORE_HOOK
	e810u_test_store(base, off);
#endif
}

static inline uint64_t e810u_get64(const void *base, size_t off)
{
	return le64toh(*(const volatile uint64_t *)((const uint8_t *)base + off));
}

#endif /* E810U_RING_OS_H */
